import type { FastifyInstance } from 'fastify';
import { SIMULATED_NOW_HEADER } from '@pixauto/bank';
import { DATE_TIME } from '../domain/validation';
import { enterRequestedNow } from '../simulated-clock';

/** The instant of an `x-simulated-now` header (RFC 3339 date-time with an offset); undefined when absent or not one. */
export function simulatedNowOf(header: unknown): Date | undefined {
  if (typeof header !== 'string' || !DATE_TIME.test(header)) return undefined;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * Serves a request carrying `x-simulated-now` at that instant (SimulatedClock), and every other request on real
 * time: set first thing for every request, so nothing carries over from an earlier request on the same connection.
 * A Fastify hook rather than a Nest interceptor: the interceptor chain (rxjs, two AsyncResource bindings per
 * request) was a tenth of a busy simulator's time. A header that is not an instant is ignored.
 */
export function serveAtSimulatedNow(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    enterRequestedNow(simulatedNowOf(request.headers[SIMULATED_NOW_HEADER]));
    done();
  });
}
