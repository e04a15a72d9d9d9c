import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WebhookEventType } from '@pixauto/contracts';
import { createHttpApp } from '@pixauto/runtime';
import { DOCS_PATH, DOCUMENT_PATH, Listener, LISTENERS, serveReference } from './document';
import {
  BCB_TYPES_FILE,
  documentFile,
  documentText,
  generateBankTypes,
  generateDocuments,
  generateResponseSchemas,
  generateTypes,
  listenerModule,
  RESPONSE_SCHEMAS_FILE,
  responseSchemasModule,
  typesFile,
} from './generate';

const ROOT = join(__dirname, '../../../..');

interface WebhookOperation {
  requestBody: { content: Record<string, { schema: { properties: { type: { const: string }; data: { $ref: string } } } }> };
}
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The OpenAPI 3.1 validator is an ES module: it runs in a child Node, on the document as JSON. */
function validateOpenApi(document: OpenAPIObject): { valid: boolean; errors?: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = ''; for await (const chunk of process.stdin) input += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, input: JSON.stringify(document) });
  return JSON.parse(out.toString()) as { valid: boolean; version: string; errors?: unknown };
}

/** "GET /v2/pix" for every route Fastify registered for the controllers (HEAD and the reference's own routes left out). */
const isReference = (url: string) => url === DOCUMENT_PATH || url === DOCS_PATH || url.startsWith(`${DOCS_PATH}/`) || url.startsWith(`${DOCS_PATH}-`);
const documentedOperations = (document: OpenAPIObject) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

interface Listening {
  app: NestFastifyApplication;
  routes: string[];
  document: OpenAPIObject;
}

async function listen(listener: Listener): Promise<Listening> {
  const app = await createHttpApp(listenerModule(listener), { logger: false });
  const routes: string[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD' && !isReference(route.url)) routes.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
      }
    });
  const document = serveReference(app, listener);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return { app, routes, document };
}

describe.each(LISTENERS.map((listener) => [listener]))('the %s listener', (listener) => {
  let it_: Listening;
  beforeAll(async () => {
    it_ = await listen(listener);
  });
  afterAll(() => it_.app.close());

  it('has a valid OpenAPI 3.1 document', () => {
    const result = validateOpenApi(it_.document);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
    // and the validator does refuse a document that breaks the specification
    const broken = JSON.parse(JSON.stringify(it_.document)) as OpenAPIObject;
    Object.values(broken.paths)[0].get = { responses: { 200: { content: {} } } } as never;
    expect(validateOpenApi(broken).valid).toBe(false);
    expect(it_.document.openapi).toBe('3.1.0');
  });

  it('documents every route it serves, and serves every route it documents', () => {
    expect(it_.routes.length).toBeGreaterThan(5);
    expect([...documentedOperations(it_.document)].sort()).toEqual([...new Set(it_.routes)].sort());
  });

  it('documents every operation with a summary, a success answer, its errors in the error shape and a named schema for each JSON body', () => {
    const schemas = it_.document.components?.schemas ?? {};
    for (const [path, item] of Object.entries(it_.document.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([key]) => METHODS.includes(key))) {
        const where = `${method.toUpperCase()} ${path}`;
        expect({ where, summary: typeof operation.summary }).toEqual({ where, summary: 'string' });
        const statuses = Object.keys(operation.responses);
        expect({ where, success: statuses.some((s: string) => s.startsWith('2')) }).toEqual({ where, success: true });
        expect({ where, unauthorized: statuses.includes('401') }).toEqual({ where, unauthorized: true });
        for (const [status, response] of Object.entries(operation.responses) as Array<[string, { content?: Record<string, { schema: { $ref?: string } }> }]>) {
          const json = response.content?.['application/json'];
          if (!json) continue;
          const name = json.schema.$ref?.replace('#/components/schemas/', '');
          expect({ where, status, named: name !== undefined && name in schemas }).toEqual({ where, status, named: true });
          if (!status.startsWith('2')) expect({ where, status, name }).toEqual({ where, status, name: 'Error' });
        }
        for (const parameter of (operation.parameters ?? []) as Array<{
          name: string;
          in: string;
          required?: boolean;
          examples?: { example?: { value: unknown } };
        }>) {
          if (parameter.in === 'path' || parameter.required) {
            expect({ where, parameter: parameter.name, example: parameter.examples?.example?.value !== undefined }).toEqual({
              where,
              parameter: parameter.name,
              example: true,
            });
          }
        }
        const body = operation.requestBody?.content?.['application/json'];
        if (body) {
          const name = body.schema.$ref?.replace('#/components/schemas/', '');
          expect({ where, body: name !== undefined && name in schemas, example: body.examples?.example?.value !== undefined }).toEqual({
            where,
            body: true,
            example: true,
          });
        }
      }
    }
  });

  it("has request examples that their body's schema accepts", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: it_.document.components });
    let checked = 0;
    for (const [path, item] of Object.entries(it_.document.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([key]) => METHODS.includes(key))) {
        const body = operation.requestBody?.content?.['application/json'];
        if (!body) continue;
        const validate = ajv.compile({ $ref: `doc${body.schema.$ref}` });
        const example = body.examples.example.value;
        checked++;
        expect({ where: `${method} ${path}`, errors: validate(example) ? null : validate.errors }).toEqual({ where: `${method} ${path}`, errors: null });
        expect(validate({ ...example, not_a_field: 1 })).toBe(false); // unknown fields are refused
      }
    }
    expect(checked).toBeGreaterThan(listener === 'admin' ? 2 : 8);
  });

  it('serves /openapi.json and the /docs page with its assets without an API key', async () => {
    const json = await it_.app.inject({ method: 'GET', url: DOCUMENT_PATH });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(JSON.parse(JSON.stringify(it_.document)));
    const page = await it_.app.inject({ method: 'GET', url: DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const url = new URL(asset, `http://gateway${DOCS_PATH}`).pathname; // as a browser resolves it from the page
      const answer = await it_.app.inject({ method: 'GET', url });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 200 });
    }
  });
});

describe('the listeners’ documents', () => {
  it('put the /v2/sandbox routes in the sandbox document only, and the production routes in both', async () => {
    const { production, sandbox } = await generateDocuments();
    const productionPaths = Object.keys(production.paths);
    const sandboxPaths = Object.keys(sandbox.paths);
    expect(productionPaths.filter((path) => path.startsWith('/v2/sandbox'))).toEqual([]);
    expect(sandboxPaths.filter((path) => path.startsWith('/v2/sandbox')).length).toBeGreaterThan(5);
    expect(sandboxPaths).toEqual(expect.arrayContaining(productionPaths));
    expect(production.servers?.map((server) => server.url)).toEqual(['http://127.0.0.1:3000', 'http://127.0.0.1:3001']);
  });

  it('list every webhook event a merchant can receive, with its payload, in the merchant documents only', async () => {
    const documents = await generateDocuments();
    for (const listener of ['production', 'sandbox'] as const) {
      const document = documents[listener] as OpenAPIObject & { webhooks: Record<string, { post: WebhookOperation }> };
      expect(Object.keys(document.webhooks)).toEqual(WEBHOOK_EVENT_TYPES);
      for (const [type, { post }] of Object.entries(document.webhooks)) {
        const body = post.requestBody.content['application/json'].schema;
        expect({ type, event: body.properties.type.const, data: body.properties.data.$ref }).toEqual({
          type,
          event: type,
          data: `#/components/schemas/${WEBHOOK_EVENTS[type as WebhookEventType].data}`,
        });
        expect(document.components?.schemas?.[WEBHOOK_EVENTS[type as WebhookEventType].data]).toBeDefined();
      }
      const filter = document.paths['/v2/webhooks/deliveries'].get?.parameters?.find((parameter) => 'name' in parameter && parameter.name === 'event_type');
      expect(filter).toMatchObject({ schema: { enum: WEBHOOK_EVENT_TYPES } });
      // and a delivery's `event_type` is one of them, by value
      expect(document.components?.schemas?.WebhookEventType).toMatchObject({ type: 'string', enum: WEBHOOK_EVENT_TYPES });
    }
    expect(documents.admin).not.toHaveProperty('webhooks');
  });
});

describe('the committed generated files (npm run api:generate)', () => {
  const committed = (file: string) => readFileSync(join(ROOT, file), 'utf8');
  let documents: Record<Listener, OpenAPIObject>;
  beforeAll(async () => {
    documents = await generateDocuments();
  });

  it('hold the response schemas of the TypeScript interfaces as they are now', () => {
    expect(committed(RESPONSE_SCHEMAS_FILE)).toBe(responseSchemasModule(generateResponseSchemas()));
  }, 120_000);

  it.each(LISTENERS.map((listener) => [listener]))('hold the %s document and its client types as the code makes them now', (listener) => {
    expect(committed(documentFile(listener))).toBe(documentText(documents[listener]));
    expect(committed(typesFile(listener))).toBe(generateTypes(documents[listener]));
  });

  it('hold the BCB API Pix types as the vendored document makes them', () => {
    expect(committed(BCB_TYPES_FILE)).toBe(generateBankTypes());
  });
});
