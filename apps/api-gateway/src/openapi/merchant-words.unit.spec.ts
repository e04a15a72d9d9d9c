import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Listener } from './document';

// The committed OpenAPI documents are what merchants (and operators) read at /docs: every operation, parameter,
// schema and field says what it means in the reader's words, and none of them cites a file the reader cannot see.
// openapi.int.spec.ts keeps the committed documents equal to what the code makes, so a description dropped or an
// internal reference added in a DTO, an interface or a route fails here once the documents are regenerated, and
// fails there until they are.

const ROOT = join(__dirname, '../../../..');
/** The listeners and their committed documents (document.ts LISTENERS, generate.ts documentFile), without loading the gateway. */
const LISTENERS: Listener[] = ['production', 'sandbox', 'admin'];
const documentFile = (listener: Listener) => `libs/api-client/openapi/${listener}.json`;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Internal references: the spec files, their sections, the README, issue numbers. */
const INTERNAL = /service-api\.md|platform\.md|§|README|issue #?\d/i;
/** Shorter than this, an operation's description cannot say what it does and what to expect. */
const MIN_OPERATION_DESCRIPTION = 40;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

const documentOf = (listener: Listener): Schema => JSON.parse(readFileSync(join(ROOT, documentFile(listener)), 'utf8')) as Schema;

/** Every string of the document, keys included, with where it is. */
function strings(value: Json, where = ''): Array<[where: string, text: string]> {
  if (typeof value === 'string') return [[where, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, `${where}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [[`${where}/${key} (key)`, key] as [string, string], ...strings(item, `${where}/${key}`)]);
}

const isObject = (value: Json | undefined): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const described = (value: Json | undefined): boolean => isObject(value) && typeof value.description === 'string' && value.description.trim().length > 0;

/** Every property of a schema, however deep: nested objects, array items, combinations and maps. */
function properties(schema: Json | undefined, where: string): Array<[where: string, property: Json]> {
  if (!isObject(schema)) return [];
  const own = isObject(schema.properties)
    ? Object.entries(schema.properties).flatMap(([name, property]) => [
        [`${where}.${name}`, property] as [string, Json],
        ...properties(property, `${where}.${name}`),
      ])
    : [];
  const items = (Array.isArray(schema.items) ? schema.items : [schema.items]).flatMap((item) => properties(item, `${where}[]`));
  const combined = ['anyOf', 'oneOf', 'allOf'].flatMap((key) =>
    Array.isArray(schema[key]) ? (schema[key] as Json[]).flatMap((part) => properties(part, where)) : [],
  );
  const map = properties(schema.additionalProperties, `${where}{}`);
  return [...own, ...items, ...combined, ...map];
}

/** Every operation of the document: "GET /v2/pix", and the requests a webhook receives ("WEBHOOK charge.paid"). */
function operations(document: Schema): Array<[where: string, operation: Schema]> {
  const of = (items: Json | undefined, label: (method: string, key: string) => string) =>
    Object.entries(isObject(items) ? items : {}).flatMap(([key, item]) =>
      Object.entries(item as Schema)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => [label(method, key), operation as Schema] as [string, Schema]),
    );
  return [...of(document.paths, (method, path) => `${method.toUpperCase()} ${path}`), ...of(document.webhooks, (_method, type) => `WEBHOOK ${type}`)];
}

/** A `$ref` to a parameter of the document's components, resolved; anything else as it is. */
function resolved(document: Schema, value: Json): Schema {
  const ref = isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
  if (ref === undefined) return value as Schema;
  const name = ref.replace('#/components/parameters/', '');
  return (((document.components as Schema | undefined)?.parameters as Schema | undefined)?.[name] ?? {}) as Schema;
}

/** Every parameter: the operations' own (references resolved), their path items' and the shared components'. */
function parameters(document: Schema): Array<[where: string, parameter: Schema]> {
  const list = (where: string, value: Json | undefined) =>
    (Array.isArray(value) ? value.map((p) => resolved(document, p)) : []).map((p) => [`${where} ${p.in}:${p.name}`, p] as [string, Schema]);
  const ofPaths = Object.entries(document.paths as Schema).flatMap(([path, item]) => list(path, (item as Schema).parameters));
  const ofOperations = operations(document).flatMap(([where, operation]) => list(where, operation.parameters));
  const shared = Object.entries(((document.components as Schema | undefined)?.parameters ?? {}) as Schema).map(
    ([name, p]) => [`components.parameters.${name}`, p as Schema] as [string, Schema],
  );
  return [...ofPaths, ...ofOperations, ...shared];
}

/** The properties of the request bodies written inline (the webhooks' envelopes; the routes' bodies are components). */
function inlineBodyProperties(document: Schema): Array<[where: string, property: Json]> {
  return operations(document).flatMap(([where, operation]) => {
    const content = (isObject(operation.requestBody) && isObject(operation.requestBody.content) ? operation.requestBody.content : {}) as Schema;
    return Object.entries(content).flatMap(([mediaType, media]) => properties((media as Schema).schema, `${where} ${mediaType}`));
  });
}

const schemasOf = (document: Schema): Schema => ((document.components as Schema | undefined)?.schemas ?? {}) as Schema;

describe.each(LISTENERS.map((listener) => [listener]))("the committed %s document, in the reader's words", (listener) => {
  const document = documentOf(listener);

  it('cites no internal file, section, README or issue number', () => {
    const cited = strings(document).filter(([, text]) => INTERNAL.test(text));
    expect(cited.map(([where, text]) => `${where}: ${text}`)).toEqual([]);
  });

  it(`describes every operation in at least ${MIN_OPERATION_DESCRIPTION} characters`, () => {
    const all = operations(document);
    expect(all.length).toBeGreaterThan(5);
    const short = all.filter(([, operation]) => typeof operation.description !== 'string' || operation.description.trim().length < MIN_OPERATION_DESCRIPTION);
    expect(short.map(([where, operation]) => `${where}: ${JSON.stringify(operation.description ?? null)}`)).toEqual([]);
  });

  it('describes every parameter', () => {
    const all = parameters(document);
    expect(all.length).toBeGreaterThan(5);
    expect(all.filter(([, parameter]) => !described(parameter)).map(([where]) => where)).toEqual([]);
  });

  it('describes every component schema, and every property of each however deep (nested objects, array items)', () => {
    const schemas = Object.entries(schemasOf(document));
    expect(schemas.length).toBeGreaterThan(5);
    expect(schemas.filter(([, schema]) => !described(schema)).map(([name]) => name)).toEqual([]);
    const all = schemas.flatMap(([name, schema]) => properties(schema, name));
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter(([, property]) => !described(property)).map(([where]) => where)).toEqual([]);
  });

  it('describes every property of the request bodies written inline (what a webhook receives)', () => {
    expect(
      inlineBodyProperties(document)
        .filter(([, property]) => !described(property))
        .map(([where]) => where),
    ).toEqual([]);
  });
});

it('covers every committed document', () => {
  const committed = readdirSync(join(ROOT, 'libs/api-client/openapi')).filter((file) => file.endsWith('.json'));
  expect(committed.sort()).toEqual(LISTENERS.map((listener) => documentFile(listener).split('/').pop()).sort());
});

describe('the checks themselves', () => {
  it('find what is missing: an undescribed nested property, array item field or parameter, a short operation, a cited file', () => {
    const broken: Schema = {
      paths: { '/v2/x': { get: { description: 'Too short.', parameters: [{ name: 'page', in: 'query' }] } } },
      webhooks: {
        'thing.done': {
          post: {
            description: 'Sent when a thing is done, to the webhook URL of the thing.',
            parameters: [{ $ref: '#/components/parameters/Signature' }],
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { type: { const: 'thing.done' } } } } } },
          },
        },
      },
      components: {
        parameters: { Signature: { name: 'webhook-signature', in: 'header' } },
        schemas: {
          Thing: {
            description: 'A thing (see §3 of the internal notes).',
            properties: {
              outer: { description: 'Described.', type: 'object', properties: { inner: { type: 'string' } } },
              list: { description: 'Described.', type: 'array', items: { type: 'object', properties: { field: { type: 'number' } } } },
            },
          },
        },
      },
    };
    expect(strings(broken).filter(([, text]) => INTERNAL.test(text))).toHaveLength(1);
    expect(operations(broken).filter(([, operation]) => String(operation.description).length < MIN_OPERATION_DESCRIPTION)).toHaveLength(1);
    expect(operations(broken).map(([where]) => where)).toEqual(['GET /v2/x', 'WEBHOOK thing.done']);
    expect(
      parameters(broken)
        .filter(([, parameter]) => !described(parameter))
        .map(([where]) => where),
    ).toEqual(['GET /v2/x query:page', 'WEBHOOK thing.done header:webhook-signature', 'components.parameters.Signature']);
    expect(
      inlineBodyProperties(broken)
        .filter(([, property]) => !described(property))
        .map(([where]) => where),
    ).toEqual(['WEBHOOK thing.done application/json.type']);
    expect(
      properties(schemasOf(broken).Thing, 'Thing')
        .filter(([, property]) => !described(property))
        .map(([where]) => where),
    ).toEqual(['Thing.outer.inner', 'Thing.list[].field']);
  });
});
