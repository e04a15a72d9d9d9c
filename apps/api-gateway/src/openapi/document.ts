import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { WEBHOOK_EVENTS } from '@pixauto/contracts';
import { componentSchemas } from './schemas';
import { ADMIN_TOKEN_SCHEME, API_KEY_SCHEME, ref } from './route-doc';

/** The gateway's three listeners, each with its own document. */
export type Listener = 'production' | 'sandbox' | 'admin';
export const LISTENERS: readonly Listener[] = ['production', 'sandbox', 'admin'];

/** Where each listener's reference is served, without an API key. */
export const DOCS_PATH = '/docs';
export const DOCUMENT_PATH = '/openapi.json';

/**
 * The servers named in the documents: the listeners' default ports (README "Sandbox quickstart"). The documents are
 * committed and must not depend on the environment that generated them; a deployment puts its own host in front.
 */
const SERVERS: Record<Listener, Array<[string, string]>> = {
  production: [
    ['http://127.0.0.1:3000', 'Production (PORT): production keys'],
    ['http://127.0.0.1:3001', 'Sandbox (SANDBOX_PORT): sandbox keys, the same routes with simulated banks'],
  ],
  sandbox: [['http://127.0.0.1:3001', 'Sandbox (SANDBOX_PORT): sandbox keys; the /v2/sandbox routes drive the simulated banks and clock']],
  admin: [['http://127.0.0.1:3002', 'Admin (ADMIN_PORT): the operator token']],
};

const TITLES: Record<Listener, [string, string]> = {
  production: [
    'Pix Automático PSP: merchant API',
    'Recurrences (Pix Automático), charges, solicitations, Pix cash-in, payouts, refunds, receipts and customer limits.',
  ],
  sandbox: [
    'Pix Automático PSP: merchant API (sandbox)',
    'The production API on sandbox keys, with simulated banks, plus the /v2/sandbox routes that play the payer, the banks and a test clock, so that every flow can be walked end to end by API calls. Sandbox data never mixes with production data.',
  ],
  admin: ['Pix Automático PSP: admin API', 'The operator API: merchant accounts, their API keys, webhook secrets and webhook deliveries.'],
};

/**
 * The OpenAPI 3.1 document of one listener, from its own controllers (their @nestjs/swagger decorators) and the
 * code's schemas; the sandbox listener's controllers include the Sandbox* ones, so only its document has /v2/sandbox.
 */
export function buildDocument(app: INestApplication, listener: Listener, responses?: Record<string, unknown>): OpenAPIObject {
  const [title, description] = TITLES[listener];
  const builder = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle(title).setDescription(description).setVersion('2');
  for (const [url, about] of SERVERS[listener]) builder.addServer(url, about);
  if (listener === 'admin') {
    builder.addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The operator token the gateway was started with (ADMIN_TOKEN), as `Bearer <token>`.' },
      ADMIN_TOKEN_SCHEME,
    );
  } else {
    builder.addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'The API key itself (a `Bearer ` prefix is tolerated); production keys on production, sandbox keys on sandbox.',
      },
      API_KEY_SCHEME,
    );
  }
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controller, method) => `${controller.replace(/Routes$|Controller$/, '')}_${method}`,
  });
  if (listener !== 'admin') {
    Object.assign(document, { webhooks: webhookEvents(listener) });
    document.components = { ...document.components, parameters: Object.fromEntries(WEBHOOK_HEADERS.map((header) => [header.component, header.parameter])) };
  }
  const schemas = closeRequestBodies(document, componentSchemas(responses));
  const used = referencedSchemas(document, schemas);
  document.components = { ...document.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) };
  return document;
}

/** The Standard Webhooks headers of every webhook request, as components the `webhooks` entries name. */
const WEBHOOK_HEADERS = (
  [
    [
      'WebhookId',
      'webhook-id',
      "The delivery's id: the same on every retry of this event, so an endpoint that saw it already can answer 2xx and do nothing.",
      'msg_2b6f0c1e9a7d4c3b8e5f1a2b3c4d5e6f',
    ],
    [
      'WebhookTimestamp',
      'webhook-timestamp',
      'When this attempt was signed, in seconds since the Unix epoch. Refuse a request more than 5 minutes away from your clock.',
      '1796200000',
    ],
    [
      'WebhookSignature',
      'webhook-signature',
      'Space-separated signatures: `v1,<base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body">` with the account\'s webhook secret of this environment (two while a rotated secret still signs). Production and sandbox webhooks are signed with different secrets: verify with the secret of the environment the receiver serves, never with both. Check it with a Standard Webhooks library: `new Webhook(secret).verify(rawBody, headers)`.',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ],
  ] as const
).map(([component, name, description, example]) => ({
  component,
  parameter: { name, in: 'header' as const, required: true, description, schema: { type: 'string' as const }, example },
}));

const RESOURCE_NAMES = {
  recurrence: 'recurrence',
  charge: 'recurrence the charge belongs to',
  pix_charge: 'Pix charge',
  due_date_charge: 'due-date Pix charge',
  payout: 'payout',
} as const;

/**
 * What a merchant's endpoint receives (OpenAPI 3.1 `webhooks`): one request per event type, from the contracts'
 * catalogue, so the reference lists exactly the events the dispatcher sends, each with the schema of its `data`.
 */
function webhookEvents(environment: 'production' | 'sandbox'): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          tags: ['Webhook events'],
          summary: type,
          description: `${event.description} Sent to the webhook URL of the ${RESOURCE_NAMES[event.resource]}; \`data\` is the ${event.data === 'RefundResponse' ? 'refund' : event.resource.replaceAll('_', ' ')} as its GET shows it at that moment.`,
          parameters: WEBHOOK_HEADERS.map((header) => ({ $ref: `#/components/parameters/${header.component}` })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'environment', 'timestamp', 'data'],
                  properties: {
                    type: { const: type, description: 'The event type.' },
                    environment: {
                      const: environment,
                      description: `Where the event happened: \`${environment}\` for every webhook of this environment, signed with its own secret. After checking the signature, refuse a body whose \`environment\` is not the one your receiver serves.`,
                    },
                    timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (ISO 8601, UTC).' },
                    data: { ...ref(event.data), description: 'The resource after the event.' },
                  },
                },
              },
            },
          },
          responses: {
            '2XX': {
              description:
                'Received. Answer within 15 seconds. Any other answer, or none, is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h and 24 h (10 attempts over 3 days); 410 Gone stops them. While your endpoint answers, the events of one recurrence (with its charges), Pix charge or payout arrive in the order they happened.',
            },
          },
        },
      },
    ]),
  );
}

/** A body naming a field the endpoint does not have is refused (`… is not a field of this endpoint`): said in its schema. */
function closeRequestBodies(document: OpenAPIObject, schemas: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const closed = { ...schemas };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Array<{ requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>) {
      const ref = operation?.requestBody?.content?.['application/json']?.schema?.$ref;
      const name = ref?.slice('#/components/schemas/'.length);
      if (name && closed[name]) closed[name] = { ...closed[name], additionalProperties: false };
    }
  }
  return closed;
}

/** The schemas the document reaches from its operations, transitively: each document carries what it names, no more. */
function referencedSchemas(document: OpenAPIObject, schemas: Record<string, unknown>): Set<string> {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
        const name = item.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(item);
    }
  };
  visit(document.paths);
  visit((document as { webhooks?: unknown }).webhooks);
  return used;
}

/** GET /openapi.json and the reference page GET /docs (Swagger UI and its assets), outside the controllers' guards. */
export function serveReference(app: INestApplication, listener: Listener): OpenAPIObject {
  const document = buildDocument(app, listener);
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    jsonDocumentUrl: DOCUMENT_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: TITLES[listener][0],
    swaggerOptions: { persistAuthorization: true, displayOperationId: false, tryItOutEnabled: listener === 'sandbox' },
  });
  return document;
}
