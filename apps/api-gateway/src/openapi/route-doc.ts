import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { BankMessages } from '@pixauto/bank';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { Messages } from '@pixauto/errors';

// The OpenAPI decorators of the gateway's routes, in the few forms the API has. Schemas are named, never written
// here: request bodies come from the class-validator DTOs, responses from the contracts' interfaces (schemas.ts).

export const API_KEY_SCHEME = 'ApiKey';
export const ADMIN_TOKEN_SCHEME = 'AdminToken';
export const ERROR_SCHEMA = 'Error';

/** The path id the examples use: no resource has it, so each replayed example answers its documented 404. */
export const EXAMPLE_ID = 'example-0000';
/** The same for the integer ids (Pix charges, payouts). */
export const EXAMPLE_NUMBER = '999999999';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A refusal the route can answer: its status and an example body (docs/api/README.md#errors). */
export type ErrorExample = [status: number, body: Record<string, unknown>];

export const invalid = (message: string): ErrorExample => [400, { type: 'ValidationError', message }];
export const notFound = (message: string): ErrorExample => [404, { message }];
export const providerRefusal = (status: number, message: string): ErrorExample => [status, { type: 'ProviderError', message }];
export const limitExceeded = (message: string): ErrorExample => [400, { type: 'LimitExceededError', message }];

function errorResponses(errors: ErrorExample[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, Record<string, unknown>[]>();
  for (const [status, body] of errors) byStatus.set(status, [...(byStatus.get(status) ?? []), body]);
  return applyDecorators(
    ...[...byStatus].map(([status, bodies]) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Refused',
        content: {
          'application/json': {
            schema: ref(ERROR_SCHEMA),
            examples: Object.fromEntries(bodies.map((value, i) => [`e${i + 1}`, { summary: String(value.message), value }])),
          },
        },
      }),
    ),
  );
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is refused: ValidationError (field rules), LimitExceededError (customer limit) or ProviderError',
  401: 'Missing, unknown, revoked or other-environment API key',
  403: 'The key may not do this',
  404: 'No such resource for this account',
  409: "Not possible in the resource's present state; retry later or as the message says",
  422: 'The bank refused the operation (ProviderError), or the Idempotency-Key was used with another request',
  429: 'The account is over its requests per second in this environment (all its keys count together), or runs too many of something at once; retry after Retry-After seconds',
  502: 'The bank failed',
  503: 'Overloaded or a dependency is down; retry after Retry-After seconds',
};

/** Every merchant route: its tag, the Authorization key, and the refusals any route can answer. */
export const MerchantRoutes = (tag: string): ClassDecorator =>
  applyDecorators(
    ApiTags(tag),
    ApiSecurity(API_KEY_SCHEME),
    errorResponses([
      [401, { code: 1, message: Messages.auth.apiKeyInvalid }],
      [429, { message: Messages.request.rateLimited(100) }],
      [503, { message: Messages.request.serviceUnavailable }],
    ]),
  );

/** Every admin route: the Bearer admin token. */
export const AdminRoutes = (tag: string): ClassDecorator =>
  applyDecorators(ApiTags(tag), ApiSecurity(ADMIN_TOKEN_SCHEME), errorResponses([[401, { code: 1, message: Messages.auth.adminTokenInvalid }]]));

/**
 * Routes that ask the bank: its refusal keeps the settlement system's status, reason and violations
 * (libs/bank problem.ts); 400 and 422 are the ones the BCB API uses for a request and a business rule.
 */
export const BANK_REFUSALS: ErrorExample[] = [
  [
    400,
    {
      type: 'ProviderError',
      message: 'A requisição que busca alterar a recorrência não respeita o schema ou está semanticamente errada.',
      provider_code: 'RecOperacaoInvalida',
      violations: [{ property: 'calendario.dataInicial', reason: 'data anterior à data de hoje' }],
    },
  ],
  [422, { type: 'ProviderError', message: BankMessages.refused(422) }],
];

/** Writes: the read-only keys' 403. */
export const WRITE_REFUSALS: ErrorExample[] = [[403, { code: 2, message: Messages.auth.apiKeyReadOnly }]];

export interface QueryDoc {
  name: string;
  required?: boolean;
  type?: 'string' | 'integer' | 'number';
  description?: string;
  enum?: string[];
  /** What the contract test sends. */
  example?: string;
}

/** The webhook delivery log's filters, the same for the merchant and the operator. */
export const DELIVERY_FILTERS: QueryDoc[] = [
  {
    name: 'status',
    enum: [...DELIVERY_STATUSES],
    description:
      'Only deliveries in this status. pending: waiting for an attempt. delivered: answered 2xx. failed: every attempt failed, or 410 Gone. cancelled: the webhook was cleared or replaced, or the webhook endpoint disabled or deleted, first.',
  },
  { name: 'event_type', enum: [...WEBHOOK_EVENT_TYPES], description: 'Only deliveries of this event type' },
  { name: 'resource_id', description: "Only deliveries about this resource: a `recurrence_id` or `charge_id`, or a Pix charge's or payout's `id`." },
  { name: 'endpoint_id', description: 'Only deliveries to this webhook endpoint (its `endpoint_id`, a UUID).' },
  {
    name: 'start',
    description: 'Only deliveries created from then on: a day, YYYY-MM-DD (from its start, Brasília time), or an ISO 8601 date-time with its time zone.',
  },
  {
    name: 'end',
    description:
      'Only deliveries created before then: a day, YYYY-MM-DD (that whole day included, Brasília time), or an ISO 8601 date-time with its time zone. Must be after `start`.',
  },
  { name: 'page', type: 'integer', description: 'The page to return, counted from 0. Default 0.' },
  { name: 'page_size', type: 'integer', description: 'Deliveries per page: 1 to 100, default 20.' },
];

/** The request log's filters and paging, the same for the merchant (GET /v2/requests) and the operator. */
export const REQUEST_LOG_FILTERS: QueryDoc[] = [
  { name: 'request_id', description: 'Only the request with this id (its `X-Request-Id`).' },
  { name: 'failed', description: '`true`: only the requests answered 400 or above.', example: 'true' },
  { name: 'method', description: 'Only requests of this method, e.g. `POST`.' },
  { name: 'path', description: 'Only requests whose path starts with this, e.g. `/v2/payout`.' },
  { name: 'exclude_key_ids', description: 'Leaves out the requests of these keys (their `key_id`s, comma-separated): the console leaves out its own.' },
  { name: 'limit', type: 'integer', description: 'Lines per page, 1 to 100; 50 by default.' },
  { name: 'cursor', description: 'The `next_cursor` of the previous page, for the next (older) one.' },
];

/** The period and page of the lists by creation time (shaped as the recurrences'), `what` naming the items per page. */
export const periodPageQuery = (what: string): QueryDoc[] => [
  {
    name: 'start',
    required: true,
    description: 'Start of the period, included, compared with the creation time: an ISO 8601 date-time with its time zone (e.g. 2026-12-01T00:00:00-03:00).',
    example: '2024-01-01T00:00:00Z',
  },
  { name: 'end', required: true, description: 'End of the period, excluded: an ISO 8601 date-time with its time zone.', example: '2024-01-02T00:00:00Z' },
  { name: 'page', type: 'integer', description: 'The page to return, counted from 0. Default 0; a page past the last is empty.' },
  { name: 'page_size', type: 'integer', description: `${what} per page: default and maximum 100; a larger value is read as 100.` },
];

export interface RouteDoc {
  summary: string;
  description?: string;
  /** The component schema of the JSON body, and an example that the contract test replays. */
  body?: string;
  example?: unknown;
  /** Optional body (PATCH of a charge and the like take none as {}). */
  bodyOptional?: boolean;
  /** Path parameters: a description, or a description and the example the contract test sends (else EXAMPLE_ID). */
  params?: Record<string, string | [description: string, example: string]>;
  query?: QueryDoc[];
  /** The success status and its schema (none for 204); `csv`/`binary` for non-JSON answers. */
  ok: [status: number, schema?: string] | [status: number, schema: string, mediaType: 'text/csv' | 'text/event-stream'];
  errors?: ErrorExample[];
  /** A merchant POST: takes Idempotency-Key (docs/decisions/idempotency.md). */
  idempotent?: boolean;
}

/** What Idempotency-Key adds to a POST: the header, and its refusals (apps/api-gateway/src/merchant/idempotency.ts). */
const IDEMPOTENCY: { header: Parameters<typeof ApiHeader>[0]; errors: ErrorExample[] } = {
  header: {
    name: 'Idempotency-Key',
    required: false,
    description: 'Runs the POST once per key for 24 hours: a repeat with the same request gets the first answer again (Idempotent-Replayed: true).',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  errors: [
    invalid(Messages.idempotency.keyInvalid),
    [409, { message: Messages.idempotency.inProgress }],
    [422, { type: 'ValidationError', message: Messages.idempotency.otherRequest }],
  ],
};

/** One route's documentation. */
export function Route(doc: RouteDoc): MethodDecorator {
  const [status, schema, mediaType] = doc.ok;
  const decorators: Array<MethodDecorator | ClassDecorator> = [
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ...Object.entries(doc.params ?? {}).map(([name, about]) => {
      const [description, example] = typeof about === 'string' ? [about, EXAMPLE_ID] : about;
      return ApiParam({ name, description, examples: { example: { value: example } }, schema: { type: 'string' } });
    }),
    ...(doc.query ?? []).map((q) =>
      ApiQuery({
        name: q.name,
        required: q.required ?? false,
        description: q.description,
        ...(q.example !== undefined && { examples: { example: { value: q.example } } }),
        schema: { type: q.type ?? 'string', ...(q.enum && { enum: q.enum }) },
      }),
    ),
    ApiResponse({
      status,
      description: status === 204 ? 'Done' : status === 201 ? 'Created' : 'OK',
      ...(schema && {
        content: { [mediaType ?? 'application/json']: { schema: mediaType ? { type: 'string' } : ref(schema) } },
      }),
    }),
    errorResponses([...(doc.errors ?? []), ...(doc.idempotent ? IDEMPOTENCY.errors : [])]),
    ...(doc.idempotent ? [ApiHeader(IDEMPOTENCY.header)] : []),
  ];
  const body = doc.body
    ? [ApiBody({ required: !doc.bodyOptional, schema: ref(doc.body), ...(doc.example !== undefined && { examples: { example: { value: doc.example } } }) })]
    : [];
  return applyDecorators(...decorators, ...body);
}
