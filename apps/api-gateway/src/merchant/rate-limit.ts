import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

// Rate limits per account and environment (docs/decisions/rate-limits.md), whichever of the account's keys sends the
// request: a sliding window of one second in Redis, so every gateway instance counts together, and the headers of the IETF httpapi RateLimit draft (the RateLimit-Limit/-Remaining/-Reset form, as
// GitHub and express-rate-limit send them) on every authenticated answer.

export const WINDOW_MS = 1000;

/**
 * Sliding window counter: the current second's count plus the previous second's, weighted by how much of it still
 * lies inside the window. One round trip, atomic; the time is Redis's own, so instances with skewed clocks agree.
 * Returns [allowed (1|0), the estimated count after this request, ms until the current second ends].
 */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[1])
local slot = math.floor(now / window)
local into = now - slot * window
local current = KEYS[1] .. ':' .. slot
local count = tonumber(redis.call('GET', current) or '0')
local previous = tonumber(redis.call('GET', KEYS[1] .. ':' .. (slot - 1)) or '0')
local estimated = math.floor(previous * (window - into) / window) + count
if estimated >= limit then
  return {0, estimated, window - into}
end
redis.call('INCR', current)
redis.call('PEXPIRE', current, window * 2)
return {1, estimated + 1, window - into}
`;

export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window has room again (at least 1). */
  resetSeconds: number;
}

/** What Redis answered, as the verdict the headers and the refusal are made of. */
export function verdictOf(limit: number, [allowed, count, msToSlotEnd]: [number, number, number]): RateVerdict {
  return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msToSlotEnd / 1000)) };
}

/** The draft's headers; a refusal adds Retry-After. */
export function rateLimitHeaders(verdict: RateVerdict): Record<string, string> {
  return {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(verdict.resetSeconds),
    'ratelimit-policy': `${verdict.limit};w=${WINDOW_MS / 1000}`,
  };
}

type WithSlidingWindow = Redis & { slidingWindow(key: string, limit: number, windowMs: number): Promise<[number, number, number]> };

export class RateLimiter {
  private readonly logger = new Logger('RateLimiter');
  private readonly redis: WithSlidingWindow;
  private lastWarning = 0;

  constructor(
    redis: Redis,
    private readonly prefix = 'pixauto:ratelimit:account:',
  ) {
    redis.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW });
    this.redis = redis as WithSlidingWindow;
  }

  /**
   * Counts one request against `counter` (the gateway's is the account and environment). Without Redis the request passes (undefined): the limit protects the platform
   * from a runaway client, and refusing every merchant while Redis is away would be the larger outage.
   */
  async take(counter: string, limit: number): Promise<RateVerdict | undefined> {
    try {
      return verdictOf(limit, await this.redis.slidingWindow(this.prefix + counter, limit, WINDOW_MS));
    } catch (error) {
      if (performance.now() - this.lastWarning > 10_000) {
        this.lastWarning = performance.now();
        this.logger.warn(`rate limits not applied, Redis unavailable: ${String(error)}`);
      }
      return undefined;
    }
  }
}
