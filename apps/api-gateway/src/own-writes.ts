import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { FOLLOWER_FED_READS, ServiceReply, Tenant, WrittenPosition } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { SystemClock } from '@pixauto/pix';

/** How long a write is remembered for the merchant's reads: far beyond a follower's lag, short enough to stay small. */
export const OWN_WRITES_TTL_MS = 60_000;
/** A merchant writing faster than this per minute has its oldest writes forgotten first (docs/known-limits.md). */
export const OWN_WRITES_KEPT = 1000;

const keyOf = (tenant: Tenant): string => `own-writes:${tenant.accountId}:${tenant.environment}`;

/**
 * A merchant reads its own writes (docs/decisions/read-your-writes.md): the events each of its writes appended are kept
 * in Redis for a minute, shared by every gateway instance, and sent with its reads that a follower of Kafka answers
 * (FOLLOWER_FED_READS), whose service waits for its followers to have applied them. Other reads cost nothing; a
 * follower-fed read costs one Redis command.
 */
export class OwnWrites {
  private readonly logger = new Logger('OwnWrites');
  /** Real time: a sandbox test clock does not age what Redis keeps. */
  private readonly wallClock = new SystemClock();

  constructor(private readonly redis: Redis) {}

  /** The merchant's writes of the last minute, for a follower-fed read; none for another read. Redis unreachable: 503. */
  async pendingFor(pattern: string, tenant: Tenant): Promise<WrittenPosition[] | undefined> {
    if (!FOLLOWER_FED_READS.has(pattern)) return undefined;
    const members = await this.redis
      .zrangebyscore(keyOf(tenant), this.wallClock.now().getTime(), '+inf')
      .catch(() => refuse(unavailable(Messages.request.serviceUnavailable)));
    return members.length > 0 ? members.map((member) => JSON.parse(member) as WrittenPosition) : undefined;
  }

  /**
   * Remembers what a write appended, before its answer leaves. The write is done whatever happens here: when Redis
   * cannot take it, the answer still goes out, and the next reads may miss it (logged).
   */
  async remember(tenant: Tenant, answer: ServiceReply): Promise<void> {
    if (!answer.written?.length) return;
    const now = this.wallClock.now().getTime();
    const key = keyOf(tenant);
    await this.redis
      .multi()
      .zadd(key, ...answer.written.flatMap((position) => [now + OWN_WRITES_TTL_MS, JSON.stringify(position)]))
      .zremrangebyscore(key, '-inf', now)
      .zremrangebyrank(key, 0, -(OWN_WRITES_KEPT + 1))
      .pexpire(key, OWN_WRITES_TTL_MS)
      .exec()
      .catch((error: unknown) => this.logger.warn(`a write's events not remembered for the merchant's reads: ${String(error)}`));
  }
}
