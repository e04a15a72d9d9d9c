import type { FastifyInstance } from 'fastify';
import { AuditActor, AuditWriter } from '@pixauto/accounts';
import type { AuditAction } from '@pixauto/contracts';
import { Clock } from '@pixauto/pix';
import { CONSOLE_USER_HEADER, consoleUserOf } from '@pixauto/request-log';
import { maskDocuments } from '@pixauto/telemetry';
import type { AuthenticatedRequest } from './api-key.guard';

/**
 * Who made a change through the merchant API: the console user the console server signed for this very request
 * (console-user.ts), or else the integration holding the key.
 */
export class MerchantActors {
  constructor(private readonly adminToken: string | undefined) {}

  of(request: AuthenticatedRequest): AuditActor {
    const email = consoleUserOf(this.adminToken, request.id, request.headers[CONSOLE_USER_HEADER]);
    return email ? { type: 'console_user', email } : { type: 'api_key', keyId: request.grant.keyId };
  }
}

type Fields = Record<string, unknown>;

/** What one audited route's entry records: its action, the object it changed, and what it keeps of the change. */
interface AuditedRoute {
  action: AuditAction;
  /** The request's body and params, and the answer's body (read as JSON only for the routes that ask for it). */
  object: (request: { body: Fields; params: Fields }, answer: () => Fields) => string;
  detail: (body: Fields, answer: () => Fields) => Fields;
}

const ENDPOINTS = '/v2/webhooks/endpoints';
const ENDPOINT = `${ENDPOINTS}/:endpoint_id`;
const endpointOf: AuditedRoute['object'] = ({ params }, answer) => String(params.endpoint_id ?? answer().endpoint_id);
const ENDPOINT_FIELDS = ['url', 'event_types', 'description', 'enabled'];

/**
 * The merchant API's changes the gateway writes to the audit log, by `METHOD route` (docs/decisions/audit-log.md):
 * a customer limit set, and a webhook endpoint's creation, change, deletion, and its secret's reveal and rotation;
 * never a plain read or a test event. Each entry keeps what the request set, never a secret.
 */
const AUDITED_ROUTES: ReadonlyMap<string, AuditedRoute> = new Map<string, AuditedRoute>([
  [
    'POST /v2/limits',
    {
      action: 'customer_limit.set',
      object: ({ body }) => maskDocuments(String(body.document_number)),
      detail: (body) => ({
        type: body.type,
        mechanism: body.mechanism,
        ...(body.amount !== undefined && { amount: body.amount }),
        ...(body.quantity !== undefined && { quantity: body.quantity }),
      }),
    },
  ],
  [
    `POST ${ENDPOINTS}`,
    {
      action: 'webhook_endpoint.created',
      object: endpointOf,
      detail: (_body, answer) => ({ url: answer().url, event_types: answer().event_types, enabled: answer().enabled }),
    },
  ],
  [
    `PATCH ${ENDPOINT}`,
    {
      action: 'webhook_endpoint.updated',
      object: endpointOf,
      detail: (body, answer) => Object.fromEntries(ENDPOINT_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, answer()[field]])),
    },
  ],
  [`DELETE ${ENDPOINT}`, { action: 'webhook_endpoint.deleted', object: endpointOf, detail: () => ({}) }],
  [`GET ${ENDPOINT}/secret`, { action: 'webhook_endpoint.secret_revealed', object: endpointOf, detail: () => ({}) }],
  [
    `POST ${ENDPOINT}/secret/rotate`,
    {
      action: 'webhook_endpoint.secret_rotated',
      object: endpointOf,
      detail: (_body, answer) => ({ previous_secret_valid_until: answer().previous_secret_valid_until ?? null }),
    },
  ],
]);

/** The audit action of a request to `route` answered with success; undefined for a route the audit log does not record. */
export const auditActionOf = (method: string, route: string | undefined): AuditAction | undefined => AUDITED_ROUTES.get(`${method} ${route}`)?.action;

/** An answer's JSON body, once, when an entry keeps something of it. */
function answerOf(payload: unknown): () => Fields {
  let answer: Fields | undefined;
  return () => {
    if (answer) return answer;
    try {
      answer = typeof payload === 'string' && payload !== '' ? (JSON.parse(payload) as Fields) : {};
    } catch {
      answer = {};
    }
    return answer;
  };
}

/**
 * An audited change (AUDITED_ROUTES) goes to the audit log once the owning service has answered it, and before the
 * merchant gets the answer: an answered change always has its entry. The change is the service's row, so the two are
 * not one transaction: an entry that cannot be written answers the request 500, which the merchant repeats safely (a
 * limit set replaces; an endpoint's change is its Idempotency-Key's). A replayed answer (Idempotency-Key) changed
 * nothing and records nothing.
 */
export function auditChanges(fastify: FastifyInstance, audit: AuditWriter, clock: Clock, actors: MerchantActors): void {
  // Synchronous for every other request: the hook costs them one map lookup, no promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const route = reply.statusCode < 300 ? AUDITED_ROUTES.get(`${request.method} ${request.routeOptions.url}`) : undefined;
    if (!route || reply.getHeader('idempotent-replayed') === 'true') return done(null, payload);
    const authenticated = request as AuthenticatedRequest;
    const body = (request.body ?? {}) as Fields;
    const answer = answerOf(payload);
    audit
      .write({
        accountId: authenticated.grant.accountId,
        environment: authenticated.grant.environment,
        at: clock.now(),
        actor: actors.of(authenticated),
        action: route.action,
        object: route.object({ body, params: (request.params ?? {}) as Fields }, answer),
        detail: route.detail(body, answer),
      })
      .then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
  });
}
