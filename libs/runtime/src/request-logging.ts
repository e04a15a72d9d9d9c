import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { TcpContext } from '@nestjs/microservices';
import { context as otelContext, Span, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Observable, tap } from 'rxjs';
import { ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { httpRequests, rpcRequests } from '@pixauto/metrics';
import { carriedRequestId, contextOf, endSpan, REQUEST_ID_HEADER, rootLogger, SpanKind, startSpan, traceHeaders, withRequest } from '@pixauto/telemetry';
import { HttpHooksOff, toHttpError } from './http';

/**
 * One access line per request (docs/operations.md "Logs and traces"): the gateway's per HTTP request, a service's per
 * RPC, with the request id that follows the request through services, events and consumers.
 */

const roundMs = (ms: number): number => Math.round(ms * 10) / 10;

/** The span of an HTTP request being served, when tracing is on. */
const httpSpans = new WeakMap<FastifyRequest, Span>();

/** The W3C headers that make a service's span a child of this HTTP request's (none when tracing is off). */
export const traceHeadersOf = (request: FastifyRequest): Record<string, string> | undefined => {
  const span = httpSpans.get(request);
  return span ? traceHeaders(trace.setSpan(otelContext.active(), span)) : undefined;
};

/** The tenant a request was authenticated as, when it was (the gateway's API-key guard leaves its grant). */
const tenantFields = (request: FastifyRequest): { account_id?: string; environment?: string } => {
  const grant = (request as FastifyRequest & { grant?: { accountId: string; environment: string } }).grant;
  return grant ? { account_id: grant.accountId, environment: grant.environment } : {};
};

/**
 * Every request of an HTTP listener: its id returned in X-Request-Id and bound to everything its handling logs and
 * appends; counted and timed by its route's template (a label per route, not per id); one access line; a span. A
 * hook in `off` is not installed at all (a bench pricing it: the gateway's GATEWAY_HOOKS_OFF).
 */
export function instrumentHttp(fastify: FastifyInstance, listener: string, off: HttpHooksOff = new Set()): void {
  const logger = rootLogger();
  const [requestId, tracing, metrics, logging] = (['request-id', 'tracing', 'metrics', 'logging'] as const).map((hook) => !off.has(hook));
  if (requestId || tracing) {
    fastify.addHook('onRequest', (request, reply, done) => {
      if (tracing) {
        const span = startSpan(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, SpanKind.SERVER, contextOf(request.headers), {
          'http.request.method': request.method,
        });
        if (span) httpSpans.set(request, span);
      }
      if (!requestId) return done();
      void reply.header(REQUEST_ID_HEADER, request.id);
      withRequest({ requestId: request.id }, done);
    });
  }
  // Body parsing runs on the socket's events: the request is bound again for the handler.
  if (requestId) fastify.addHook('preHandler', (request, _reply, done) => withRequest({ requestId: request.id }, done));
  if (!(metrics || logging || tracing)) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    if (metrics) httpRequests.observe({ listener, method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    if (logging) {
      logger.info(
        { listener, method: request.method, route, status, latency_ms: roundMs(reply.elapsedTime), ...tenantFields(request), request_id: request.id },
        'request',
      );
    }
    const span = tracing ? httpSpans.get(request) : undefined;
    if (span) {
      span.setAttribute('http.response.status_code', status);
      endSpan(span, status >= 500 ? `status ${status}` : undefined);
    }
    done();
  });
}

/**
 * A service's side of each gateway message: the request's id (from the envelope) bound to its handling, a span child
 * of the gateway's, the count and time by pattern and status (a refusal's included: ServiceReplyFilter makes the same
 * reply), and one access line.
 */
@Injectable()
export class RpcObservationInterceptor implements NestInterceptor {
  private readonly logger = rootLogger();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const pattern = context.switchToRpc().getContext<TcpContext>().getPattern();
    const request = context.switchToRpc().getData<ServiceRequest | undefined>();
    const requestId = carriedRequestId(request?.request_id) ?? randomUUID();
    const span = startSpan(pattern, SpanKind.SERVER, contextOf(request?.trace), { 'rpc.method': pattern });
    const started = performance.now();
    const observe = (status: number) => {
      const ms = performance.now() - started;
      rpcRequests.observe({ pattern, status: String(status) }, ms / 1000);
      this.logger.info(
        { pattern, status, latency_ms: roundMs(ms), account_id: request?.tenant?.accountId, environment: request?.tenant?.environment, request_id: requestId },
        'rpc',
      );
      endSpan(span, status >= 500 ? `status ${status}` : undefined);
    };
    // Nest binds the handler's async context when handle() is called: inside these, it runs in them.
    const handled = withRequest({ requestId }, () => (span ? otelContext.with(trace.setSpan(otelContext.active(), span), () => next.handle()) : next.handle()));
    return handled.pipe(
      tap({
        next: (reply) => observe((reply as ServiceReply | undefined)?.status ?? 200),
        error: (error: unknown) => observe(toHttpError(error).status),
      }),
    );
  }
}
