import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiter } from './rate-limit';

// The sliding window against real Redis: each key counts apart, the limit holds, and a second later there is room.

const prefix = `pixauto:test:${randomBytes(4).toString('hex')}:ratelimit:`;
let redis: Redis;
let limiter: RateLimiter;

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  limiter = new RateLimiter(redis, prefix);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('RateLimiter (Redis)', () => {
  it('lets the limit through within a second, refuses the rest, and counts each key apart', async () => {
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => limiter.take('key_a', 5)));
    expect(verdicts.filter((verdict) => verdict?.allowed)).toHaveLength(5);
    const refused = verdicts.filter((verdict) => verdict && !verdict.allowed);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatchObject({ limit: 5, remaining: 0, resetSeconds: 1 });
    expect(await limiter.take('key_b', 5)).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('has room again once the window has slid past (the previous second weighs less and less)', async () => {
    for (let i = 0; i < 5; i++) await limiter.take('key_c', 5);
    expect(await limiter.take('key_c', 5)).toMatchObject({ allowed: false });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await limiter.take('key_c', 5)).toMatchObject({ allowed: true });
  });

  it('lets requests through when Redis cannot be reached', async () => {
    const gone = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    expect(await new RateLimiter(gone, prefix).take('key_d', 5)).toBeUndefined();
    gone.disconnect();
  });
});
