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

/**
 * A customer limit set (POST /v2/limits) goes to the audit log once limits-service has answered it, and before the
 * merchant gets the answer: an answered set always has its entry. The limit is limits-service's row, so the two are
 * not one transaction: an entry that cannot be written answers the set 500, which the merchant repeats safely (a set
 * replaces). A replayed answer (Idempotency-Key) changed nothing and records nothing.
 */
export function auditLimitChanges(fastify: FastifyInstance, audit: AuditWriter, clock: Clock, actors: MerchantActors): void {
  // Synchronous for every other request: the hook costs them one comparison, no promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/v2/limits' || reply.statusCode >= 300) return done(null, payload);
    if (reply.getHeader('idempotent-replayed') === 'true') return done(null, payload);
    const authenticated = request as AuthenticatedRequest;
    const body = (request.body ?? {}) as Record<string, unknown>;
    audit
      .write({
        accountId: authenticated.grant.accountId,
        environment: authenticated.grant.environment,
        at: clock.now(),
        actor: actors.of(authenticated),
        action: 'customer_limit.set',
        object: maskDocuments(String(body.document_number)),
        detail: {
          type: body.type,
          mechanism: body.mechanism,
          ...(body.amount !== undefined && { amount: body.amount }),
          ...(body.quantity !== undefined && { quantity: body.quantity }),
        },
      })
      .then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
  });
}

const ENDPOINTS = '/v2/webhooks/endpoints';

/** The audit action of a webhook endpoint request answered with success, by method and route; undefined for the others. */
export function endpointAuditAction(method: string, route: string | undefined): AuditAction | undefined {
  if (method === 'POST' && route === ENDPOINTS) return 'webhook_endpoint.created';
  if (method === 'PATCH' && route === `${ENDPOINTS}/:endpoint_id`) return 'webhook_endpoint.updated';
  if (method === 'DELETE' && route === `${ENDPOINTS}/:endpoint_id`) return 'webhook_endpoint.deleted';
  if (method === 'GET' && route === `${ENDPOINTS}/:endpoint_id/secret`) return 'webhook_endpoint.secret_revealed';
  if (method === 'POST' && route === `${ENDPOINTS}/:endpoint_id/secret/rotate`) return 'webhook_endpoint.secret_rotated';
  return undefined;
}

/** What an endpoint entry keeps: the fields the request set (never a secret); for a rotation, until when the old secret signs. */
function endpointDetail(action: AuditAction, body: Record<string, unknown>, answer: Record<string, unknown>): Record<string, unknown> {
  if (action === 'webhook_endpoint.secret_rotated') return { previous_secret_valid_until: answer.previous_secret_valid_until ?? null };
  if (action === 'webhook_endpoint.created') return { url: answer.url, event_types: answer.event_types, enabled: answer.enabled };
  if (action === 'webhook_endpoint.updated') {
    return Object.fromEntries(
      ['url', 'event_types', 'description', 'enabled'].filter((field) => body[field] !== undefined).map((field) => [field, answer[field]]),
    );
  }
  return {};
}

/**
 * A webhook endpoint's creation, change, deletion, and its secret's reveal and rotation go to the audit log as a
 * customer limit does (above): the endpoint is the dispatcher's row, so the gateway writes the entry once the
 * dispatcher has answered, before the merchant gets the answer. A replayed answer records nothing.
 */
export function auditWebhookEndpointChanges(fastify: FastifyInstance, audit: AuditWriter, clock: Clock, actors: MerchantActors): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 300 || !request.routeOptions.url?.startsWith(ENDPOINTS)) return done(null, payload);
    const action = endpointAuditAction(request.method, request.routeOptions.url);
    if (!action || reply.getHeader('idempotent-replayed') === 'true') return done(null, payload);
    const authenticated = request as AuthenticatedRequest;
    let answer: Record<string, unknown> = {};
    try {
      answer = typeof payload === 'string' && payload !== '' ? (JSON.parse(payload) as Record<string, unknown>) : {};
    } catch {
      answer = {};
    }
    const endpointId = (request.params as { endpoint_id?: string }).endpoint_id ?? String(answer.endpoint_id);
    audit
      .write({
        accountId: authenticated.grant.accountId,
        environment: authenticated.grant.environment,
        at: clock.now(),
        actor: actors.of(authenticated),
        action,
        object: endpointId,
        detail: endpointDetail(action, (request.body ?? {}) as Record<string, unknown>, answer),
      })
      .then(
        () => done(null, payload),
        (error: Error) => done(error),
      );
  });
}
