import type { FastifyInstance } from 'fastify';
import { DataSource } from 'typeorm';
import { AuditActor, recordAudit } from '@pixauto/accounts';
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
export function auditLimitChanges(fastify: FastifyInstance, db: DataSource, clock: Clock, actors: MerchantActors): void {
  // Synchronous for every other request: the hook costs them one comparison, no promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/v2/limits' || reply.statusCode >= 300) return done(null, payload);
    if (reply.getHeader('idempotent-replayed') === 'true') return done(null, payload);
    const authenticated = request as AuthenticatedRequest;
    const body = (request.body ?? {}) as Record<string, unknown>;
    recordAudit(db.manager, {
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
    }).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
