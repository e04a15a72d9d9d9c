import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CONSOLE_DOCUMENT } from './openapi';

/** The OpenAPI 3.1 validator is an ES module: it runs in a child Node, on the document as JSON. */
function validateOpenApi(document: unknown): { valid: boolean; errors?: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = ''; for await (const chunk of process.stdin) input += chunk;
    const result = await new Validator().validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(__dirname, '../../..'), input: JSON.stringify(document) });
  return JSON.parse(out.toString()) as { valid: boolean; errors?: unknown };
}

describe("the console server's OpenAPI document", () => {
  it('is a valid OpenAPI 3.1 document', () => {
    expect(validateOpenApi(CONSOLE_DOCUMENT)).toEqual({ valid: true });
  });
});
