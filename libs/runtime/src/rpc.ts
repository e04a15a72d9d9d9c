import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, map, mergeMap, Observable } from 'rxjs';
import { ServiceReply, ServiceRequest, Tenant, WrittenPosition } from '@pixauto/contracts';
import { collectingWrites, FollowedPosition, FollowerPositions, latestWrites } from '@pixauto/event-store';
import { Messages, notFound, refuse, unavailable } from '@pixauto/errors';
import { groupsFollowing } from '@pixauto/messaging';
import { SystemClock } from '@pixauto/pix';
import { TenantClocks } from './sandbox-clock';

// What a service does with each message from the gateway, before its handler: the deadline, the tenant's test
// clock, the merchant's own writes. The service shell (service-shell.ts) chains them.

/**
 * The gateway sends a sandbox tenant's clock offset with each request, so a date rule right after a clock advance
 * already follows it (Kafka brings the same offset to the timers a moment later).
 */
@Injectable()
export class TenantClockInterceptor implements NestInterceptor {
  constructor(private readonly clocks: TenantClocks) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'rpc') {
      const request = context.switchToRpc().getData<ServiceRequest>();
      if (request?.tenant?.environment === 'sandbox' && typeof request.clock_offset_ms === 'number')
        this.clocks.observe(request.tenant.accountId, request.clock_offset_ms);
    }
    return next.handle();
  }
}

/**
 * A request still queued here (event loop, pool) when the gateway has stopped waiting for it is refused before it
 * begins: 503 with Retry-After, nothing done, so a late answer nobody reads never becomes a half-known write.
 */
@Injectable()
export class DeadlineInterceptor implements NestInterceptor {
  /** Real time for every tenant, as the gateway's: a sandbox test clock does not move deadlines. */
  private readonly wallClock = new SystemClock();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'rpc' && isPastDeadline(context.switchToRpc().getData<ServiceRequest>(), this.wallClock.now().getTime())) {
      refuse(unavailable(Messages.request.serviceUnavailable));
    }
    return next.handle();
  }
}

/** How long a read waits for this service's followers to apply a merchant's own writes before it answers 503. */
const OWN_WRITES_WAIT_MS = 3000;

/**
 * A merchant reads its own writes (docs/decisions/read-your-writes.md). A write's reply names the events it appended
 * (`written`, for the gateway only); a read the gateway sends with the merchant's recent writes waits until this
 * service's followers have applied those they follow, up to OWN_WRITES_WAIT_MS, and is 503 with Retry-After past it,
 * never an answer that misses them.
 */
@Injectable()
export class OwnWritesInterceptor implements NestInterceptor {
  constructor(private readonly positions: FollowerPositions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const wanted = followedPositions(context.switchToRpc().getData<ServiceRequest | undefined>()?.written);
    const written: WrittenPosition[] = [];
    const handle = (): Observable<unknown> =>
      collectingWrites(written, () => next.handle()).pipe(
        map((reply) => (written.length > 0 && isServiceReply(reply) ? { ...reply, written: latestWrites(written) } : reply)),
      );
    if (wanted.length === 0) return handle();
    return from(this.positions.awaitApplied(wanted, OWN_WRITES_WAIT_MS)).pipe(
      mergeMap((applied) => (applied ? handle() : refuse(unavailable(Messages.request.serviceUnavailable)))),
    );
  }
}

/** Of the merchant's writes, those a follower of this process applies, each with the follower that must have. */
const followedPositions = (written: unknown): FollowedPosition[] =>
  (Array.isArray(written) ? (written as WrittenPosition[]) : []).flatMap((w) =>
    groupsFollowing(w.topic, w.type).map((group) => ({ group, topic: w.topic, stream: w.stream, version: w.version })),
  );

const isServiceReply = (reply: unknown): reply is ServiceReply =>
  typeof reply === 'object' && reply !== null && typeof (reply as ServiceReply).status === 'number';

export const isPastDeadline = (request: ServiceRequest | undefined, nowMs: number): boolean =>
  typeof request?.deadline_ms === 'number' && nowMs > request.deadline_ms;

/** The payer's side exists only in the sandbox: the gateway routes it there only, a service checks again. */
export const sandboxTenantOf = (request: ServiceRequest): Tenant =>
  request.tenant.environment === 'sandbox' ? request.tenant : refuse(notFound(Messages.request.routeNotFound));
