import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { FOLLOWER_FED_READS, Tenant, WrittenPosition } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { SystemClock } from '@pixauto/pix';

/** How long a write is remembered for the merchant's reads: far beyond a follower's lag, short enough to stay small. */
export const OWN_WRITES_TTL_MS = 60_000;
/** A merchant writing faster than this per minute on one topic has its oldest writes forgotten first (docs/known-limits.md). */
export const OWN_WRITES_KEPT = 1000;

/** One sorted set per tenant and topic: a read asks only for the topics its service follows, so a merchant's many writes
 * on other topics (a burst of creates) cost its reads nothing. */
export const ownWritesKey = (tenant: Tenant, topic: string): string => `own-writes:${tenant.accountId}:${tenant.environment}:${topic}`;

/**
 * A merchant reads its own writes (docs/decisions/read-your-writes.md): the events each of its writes appended are kept
 * in Redis for a minute, shared by every gateway instance, and sent with its reads that a follower of Kafka answers
 * (FOLLOWER_FED_READS) on the topics their service follows, whose service waits for its followers to have applied
 * them. Other reads cost nothing; a follower-fed read costs one Redis round trip.
 */
export class OwnWrites {
  private readonly logger = new Logger('OwnWrites');
  /** Real time: a sandbox test clock does not age what Redis keeps. */
  private readonly wallClock = new SystemClock();

  constructor(private readonly redis: Redis) {}

  /** The merchant's writes of the last minute, for a follower-fed read; none for another read. Redis unreachable: 503. */
  async pendingFor(pattern: string, tenant: Tenant): Promise<WrittenPosition[] | undefined> {
    const topics = FOLLOWER_FED_READS.get(pattern);
    if (!topics) return undefined;
    const now = this.wallClock.now().getTime();
    const pipeline = this.redis.pipeline();
    for (const topic of topics) pipeline.zrangebyscore(ownWritesKey(tenant, topic), now, '+inf');
    const results = await pipeline.exec().catch(() => null);
    if (!results || results.some(([error]) => error)) return refuse(unavailable(Messages.request.serviceUnavailable));
    const members = results.flatMap(([, found]) => found as string[]);
    return members.length > 0 ? members.map((member) => JSON.parse(member) as WrittenPosition) : undefined;
  }

  /**
   * Remembers what a write appended, before its answer leaves. The write is done whatever happens here: when Redis
   * cannot take it, the answer still goes out, and the next reads may miss it (logged).
   */
  async remember(tenant: Tenant, written: readonly WrittenPosition[] = []): Promise<void> {
    if (written.length === 0) return;
    const now = this.wallClock.now().getTime();
    const transaction = this.redis.multi();
    for (const topic of new Set(written.map((position) => position.topic))) {
      const key = ownWritesKey(tenant, topic);
      const positions = written.filter((position) => position.topic === topic);
      transaction
        .zadd(key, ...positions.flatMap((position) => [now + OWN_WRITES_TTL_MS, JSON.stringify(position)]))
        .zremrangebyscore(key, '-inf', now)
        .zremrangebyrank(key, 0, -(OWN_WRITES_KEPT + 1))
        .pexpire(key, OWN_WRITES_TTL_MS);
    }
    await transaction.exec().catch((error: unknown) => this.logger.warn(`a write's events not remembered for the merchant's reads: ${String(error)}`));
  }
}
