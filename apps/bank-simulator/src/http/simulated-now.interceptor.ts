import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { SIMULATED_NOW_HEADER } from '@pixauto/bank';
import { DATE_TIME } from '../domain/validation';
import { atRequestedNow } from '../simulated-clock';

/** The instant of an `x-simulated-now` header (RFC 3339 date-time with an offset); undefined when absent or not one. */
export function simulatedNowOf(header: unknown): Date | undefined {
  if (typeof header !== 'string' || !DATE_TIME.test(header)) return undefined;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * Serves a request carrying `x-simulated-now` at that instant (SimulatedClock). Nest calls the handler inside
 * next.handle()'s async context, so the instant reaches every await of the request. A header that is not an
 * instant is ignored: the request runs on real time.
 */
@Injectable()
export class SimulatedNowInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const instant = simulatedNowOf(context.switchToHttp().getRequest<FastifyRequest>().headers[SIMULATED_NOW_HEADER]);
    return instant === undefined ? next.handle() : atRequestedNow(instant, () => next.handle());
  }
}
