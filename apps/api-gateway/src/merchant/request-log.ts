import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiKeyDirectory } from '@pixauto/accounts';
import { Environment } from '@pixauto/contracts';
import { Clock } from '@pixauto/pix';
import { CONSOLE_USER_HEADER, consoleUserOf, requestLogLine, RequestLogWriter } from '@pixauto/request-log';
import { grantOf } from './api-key.guard';
import { IDEMPOTENCY_HEADER } from './idempotency';

/**
 * Every request of a merchant listener that names one of the account's keys of this environment goes to the request
 * log once answered (refused ones too: a 401 for a revoked key, a 429, a 404 route), with the answer's body when it
 * failed, and the console user who made a change through the console (a header signed with `adminToken`, which only
 * the console server holds besides the gateway). Nothing is added to the request's own path but keeping the failed
 * answer and a push onto the writer's batch.
 */
export function logRequests(
  fastify: FastifyInstance,
  environment: Environment,
  writer: RequestLogWriter,
  directory: ApiKeyDirectory,
  clock: Clock,
  adminToken: string | undefined,
): void {
  const failedAnswers = new WeakMap<FastifyRequest, string>();
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') failedAnswers.set(request, payload);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    done();
    void grantOf(request, directory).then(
      (grant) => {
        if (!grant || grant.environment !== environment) return;
        const idempotencyKey = request.headers[IDEMPOTENCY_HEADER];
        writer.record(
          requestLogLine({
            account_id: grant.accountId,
            environment,
            key_id: grant.keyId,
            received_at: new Date(clock.now().getTime() - reply.elapsedTime),
            request_id: request.id,
            method: request.method,
            url: request.url,
            status: reply.statusCode,
            duration_ms: reply.elapsedTime,
            idempotency_key: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
            body: request.body,
            answer: failedAnswers.get(request),
            console_user: consoleUserOf(adminToken, request.id, request.headers[CONSOLE_USER_HEADER]),
          }),
        );
      },
      () => undefined, // the key could not be looked up (Redis and the database down): the request was answered 503
    );
  });
}
