import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { COMMANDS, parseCommand } from './commands';

// The CLI against the admin API's OpenAPI document (libs/api-client/openapi/admin.json, made from the gateway's
// code): every command sends a documented operation, only documented query parameters, and a body its schema accepts;
// and every operation of the admin API has its command.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document, walked as JSON
const document: any = JSON.parse(readFileSync(join(__dirname, '../../../libs/api-client/openapi/admin.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'admin', components: document.components });

const CREDENTIALS = JSON.stringify([{ code: 'PROVIDER_A', credentials: { client_id: 'id', client_secret: 'secret' } }]);
/** One use of every command, each option given. */
const SAMPLES: Record<string, string[]> = {
  'accounts create': ['--name', 'Acme', '--no-wallet', '--cashin-provider', 'PROVIDER_B', '--providers-json', CREDENTIALS, '--rate-limit-production', '50'],
  'accounts show': ['acc 1'],
  'accounts update': ['acc_1', '--wallet', 'true', '--cashin-provider', 'PROVIDER_A', '--rate-limit-sandbox', '5'],
  'accounts audit-log': ['acc_1', '--limit', '10', '--cursor', '42'],
  'accounts requests': [
    'acc_1',
    '--environment',
    'sandbox',
    '--request-id',
    'req 1',
    '--failed',
    '--method',
    'POST',
    '--path',
    '/v2/limits',
    '--limit',
    '10',
    '--cursor',
    'c1',
  ],
  'keys create': ['acc_1', '--environment', 'sandbox', '--read-only', '--no-transactions'],
  'keys list': ['acc_1'],
  'keys revoke': ['key_1'],
  'users create': ['acc_1', '--email', 'ana@loja.example', '--role', 'developer'],
  'users list': ['acc_1'],
  'users set-role': ['acc_1', '--email', 'ana@loja.example', '--role', 'viewer'],
  'users remove': ['acc_1', '--email', 'ana@loja.example'],
  'users link': ['acc_1', '--email', 'ana@loja.example'],
  'webhooks rotate-secret': ['acc_1', '--environment', 'production'],
  'webhooks deliveries': ['acc_1', '--environment', 'production', '--status', 'failed', '--resource-id', 'r/1', '--page', '2'],
  'webhooks retry': ['acc_1', 'msg_1', '--environment', 'sandbox'],
};

/** The documented operation a request's method and path are an instance of. */
function operationOf(
  method: string,
  path: string,
):
  | {
      template: string;
      operation: { parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
    }
  | undefined {
  for (const [template, item] of Object.entries<Record<string, never>>(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(path) && item[method.toLowerCase()]) return { template, operation: item[method.toLowerCase()] };
  }
  return undefined;
}

describe('the admin CLI against the admin API document', () => {
  it('has a sample of every command', () => {
    const commands = Object.entries(COMMANDS).flatMap(([group, subcommands]) => Object.keys(subcommands).map((action) => `${group} ${action}`));
    expect(Object.keys(SAMPLES).sort()).toEqual(commands.sort());
  });

  it.each(Object.entries(SAMPLES))('%s sends a documented operation with documented parameters and a valid body', (command, args) => {
    const parsed = parseCommand([...command.split(' '), ...args]);
    if (parsed.kind !== 'request') throw new Error(`${command} parsed as ${parsed.kind}`);
    const url = new URL(parsed.request.path, 'http://admin');
    const found = operationOf(parsed.request.method, url.pathname);
    expect({ command, documented: found !== undefined }).toEqual({ command, documented: true });
    const queryNames = (found!.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    for (const name of url.searchParams.keys()) expect({ command, name, documented: queryNames.includes(name) }).toEqual({ command, name, documented: true });
    const body = found!.operation.requestBody?.content['application/json'];
    expect({ command, sendsBody: parsed.request.body !== undefined }).toEqual({ command, sendsBody: body !== undefined });
    if (body && parsed.request.body) {
      const validate = ajv.compile({ $ref: `admin${body.schema.$ref}` });
      expect({ command, errors: validate(parsed.request.body) ? null : validate.errors }).toEqual({ command, errors: null });
    }
  });

  /** Operations the console server makes for a user (signing in, checking and using a sign-in link, changing their password), not the operator: no command sends them. */
  const NOT_FOR_OPERATORS = [
    'POST /admin/console-users/verify',
    'POST /admin/console-users/sign-in-link',
    'POST /admin/console-users/sign-in-link/check',
    'POST /admin/console-users/{user_id}/password',
  ];

  it('covers every operation of the admin API', () => {
    const sent = Object.entries(SAMPLES).map(([command, args]) => {
      const parsed = parseCommand([...command.split(' '), ...args]);
      if (parsed.kind !== 'request') throw new Error(command);
      return `${parsed.request.method} ${operationOf(parsed.request.method, new URL(parsed.request.path, 'http://admin').pathname)?.template}`;
    });
    const documented = Object.entries<Record<string, unknown>>(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((operation) => !NOT_FOR_OPERATORS.includes(operation));
    expect(sent.sort()).toEqual(documented.sort());
  });
});
