import type { Redis } from 'ioredis';

/** Failed sign-ins allowed per address, and per client address, within the window. */
export const SIGN_IN_LIMITS = { perEmail: 5, perClient: 20, windowSeconds: 15 * 60 };

/**
 * Slows password guessing: failures are counted per email and per client address in Redis (shared by every console
 * server); past either bound, sign-in is refused until the window ends, even with the right password. The same counts
 * hold back a wrong current password at a password change (per the user's email), and unknown sign-in links (per client
 * address: a link names no email).
 */
export class SignInLimiter {
  constructor(private readonly redis: Redis) {}

  private keys(email: string | undefined, client: string): Array<[key: string, limit: number]> {
    return [
      ...(email === undefined ? [] : [[`console:sign-in:email:${email.trim().toLowerCase()}`, SIGN_IN_LIMITS.perEmail] as [string, number]]),
      [`console:sign-in:client:${client}`, SIGN_IN_LIMITS.perClient],
    ];
  }

  /** Seconds to wait before trying again, or 0 when a sign-in may be tried now. */
  async retryAfter(email: string | undefined, client: string): Promise<number> {
    const keys = this.keys(email, client);
    const failures = (await this.redis.mget(...keys.map(([key]) => key))).map(Number);
    const blocked = keys.filter(([, limit], i) => failures[i] >= limit).map(([key]) => key);
    if (blocked.length === 0) return 0;
    const ttls = await Promise.all(blocked.map((key) => this.redis.ttl(key)));
    return Math.max(1, ...ttls);
  }

  async failed(email: string | undefined, client: string): Promise<void> {
    const multi = this.redis.multi();
    for (const [key] of this.keys(email, client)) multi.incr(key).expire(key, SIGN_IN_LIMITS.windowSeconds, 'NX');
    await multi.exec();
  }

  /** A successful sign-in forgets the address's failures (not the client's: one client guessing many addresses stays slowed). */
  async succeeded(email: string, client: string): Promise<void> {
    await this.redis.del(this.keys(email, client)[0][0]);
  }
}
