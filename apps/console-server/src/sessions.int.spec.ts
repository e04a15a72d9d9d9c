import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type ConsoleSession, Sessions, USER_RECHECK_MS } from './sessions';
import { SIGN_IN_LIMITS, SignInLimiter } from './sign-in-limiter';

// Sessions and sign-in counters against real Redis: what a browser's cookie finds, when it stops finding it, and when
// sign-in stops being tried.

const run = randomBytes(4).toString('hex');
let redis: Redis;
let now = 1_000_000;
const user = { user_id: `u-${run}`, account_id: `a-${run}`, email: `ana-${run}@loja.example`, role: 'developer' as const };

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
});
afterAll(async () => {
  const keys = [...(await redis.keys(`console:sign-in:*${run}*`)), ...(await redis.keys(`console:user-sessions:*${run}*`))];
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('Sessions (Redis)', () => {
  const sessions = () => new Sessions(redis, 60, 3600, () => now);

  it('finds a session by its id, never by anything else, and ends it at sign-out', async () => {
    const { sessionId, session } = await sessions().start(user);
    expect(session).toMatchObject({ ...user, signed_in_at: now });
    expect(session.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessions().find(sessionId)).toEqual(session);
    expect(await sessions().find(`${sessionId}x`)).toBeUndefined();
    expect(await sessions().find(undefined)).toBeUndefined();
    // Redis holds a hash of the id, not the id.
    expect(await redis.keys(`*${sessionId}*`)).toEqual([]);
    await sessions().end(sessionId);
    expect(await sessions().find(sessionId)).toBeUndefined();
  });

  it('ends a session past its maximum, however active', async () => {
    const { sessionId } = await sessions().start(user);
    now += 3600 * 1000 + 1;
    expect(await sessions().find(sessionId)).toBeUndefined();
  });

  it('pushes the idle expiry back at every request', async () => {
    const { sessionId } = await sessions().start(user);
    const [key] = await redis.keys('console:session:*').then(async (keys) => {
      for (const candidate of keys) if ((await redis.get(candidate))?.includes(user.user_id)) return [candidate];
      return [];
    });
    await redis.expire(key, 5);
    await sessions().find(sessionId);
    expect(await redis.ttl(key)).toBeGreaterThan(50);
    await sessions().end(sessionId);
  });

  it("ends every session of a user but the one kept, and no one else's", async () => {
    const [first, second, third] = [await sessions().start(user), await sessions().start(user), await sessions().start(user)];
    const other = await sessions().start({ ...user, user_id: `v-${run}` });
    await sessions().endAllOf(user.user_id, second.sessionId);
    expect(await sessions().find(first.sessionId)).toBeUndefined();
    expect(await sessions().find(third.sessionId)).toBeUndefined();
    expect(await sessions().find(second.sessionId)).toEqual(second.session);
    expect(await sessions().find(other.sessionId)).toEqual(other.session);
    await sessions().endAllOf(user.user_id);
    expect(await sessions().find(second.sessionId)).toBeUndefined();
    await sessions().endAllOf(`v-${run}`);
    expect(await sessions().find(other.sessionId)).toBeUndefined();
  });

  it('checks its user once a minute: ended when they are gone, with their new role when it changed, as it was when nobody answers', async () => {
    const { sessionId, session } = await sessions().start(user);
    const asked: string[] = [];
    const roleOf = (role: 'viewer' | 'owner' | undefined | Error) => async (of: { user_id: string }) => {
      asked.push(of.user_id);
      if (role instanceof Error) throw role;
      return role;
    };
    expect(await sessions().recheck(sessionId, session, roleOf(undefined))).toBe(session);
    expect(asked).toEqual([]);
    now += USER_RECHECK_MS;
    expect(await sessions().recheck(sessionId, session, roleOf(new Error('admin API down')))).toBe(session);
    const changed = await sessions().recheck(sessionId, session, roleOf('owner'));
    expect(changed).toEqual({ ...session, role: 'owner', checked_at: now });
    expect(await sessions().find(sessionId)).toEqual(changed);
    now += USER_RECHECK_MS;
    expect(await sessions().recheck(sessionId, changed as ConsoleSession, roleOf(undefined))).toBeUndefined();
    expect(await sessions().find(sessionId)).toBeUndefined();
    expect(asked).toEqual([user.user_id, user.user_id, user.user_id]);
  });

  it("gives a user's sessions their new role, without bringing an ended one back", async () => {
    const kept = await sessions().start(user);
    const ended = await sessions().start(user);
    await sessions().end(ended.sessionId);
    await sessions().changeRole(user.user_id, 'viewer');
    expect(await sessions().find(kept.sessionId)).toEqual({ ...kept.session, role: 'viewer' });
    expect(await sessions().find(ended.sessionId)).toBeUndefined();
    await sessions().endAllOf(user.user_id);
  });
});

describe('SignInLimiter (Redis)', () => {
  /** A limiter whose waits are recorded rather than slept. */
  const limiterSleeping = () => {
    const waits: number[] = [];
    return { waits, limiter: new SignInLimiter(redis, async (ms) => void waits.push(ms)) };
  };
  const wrong = async (limiter: SignInLimiter, email: string | undefined, client: string) => limiter.attempt(email, client);

  it("never refuses a client because of others' failures on an email: their failures delay its attempts, within a bound", async () => {
    const { waits, limiter } = limiterSleeping();
    const email = `Bia-${run}@Loja.example`;
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailAndClient; i++)
      expect(await wrong(limiter, email, `client-${run}-a`)).toMatchObject({ counted: expect.any(Array) });
    // The guessing client is refused for the rest of the window on this email...
    const refused = await limiter.attempt(email.toLowerCase(), `client-${run}-a`);
    expect(refused).toEqual({ refusedFor: expect.any(Number) });
    expect((refused as { refusedFor: number }).refusedFor).toBeGreaterThan(SIGN_IN_LIMITS.windowSeconds - 5);
    // ...another client is let through, after a delay that grows with the email's failures and stops at its bound.
    const other = await limiter.attempt(email, `client-${run}-b`);
    expect(other).toMatchObject({ delayMs: SIGN_IN_LIMITS.delayStepMs });
    for (let i = 0; i < 20; i++) await limiter.attempt(email, `client-${run}-x${i}`);
    expect(Math.max(...waits)).toBe(SIGN_IN_LIMITS.maxDelayMs);
    await limiter.succeeded(other);
    expect(await limiter.attempt(email, `client-${run}-b`)).toMatchObject({ delayMs: SIGN_IN_LIMITS.maxDelayMs });
  });

  it('counts before checking: of many concurrent attempts of one client on one email, exactly its bound go through', async () => {
    const { limiter } = limiterSleeping();
    const attempts = await Promise.all(Array.from({ length: 15 }, () => limiter.attempt(`race-${run}@loja.example`, `client-${run}-r`)));
    expect(attempts.filter((attempt) => 'counted' in attempt)).toHaveLength(SIGN_IN_LIMITS.perEmailAndClient);
    expect(attempts.filter((attempt) => 'refusedFor' in attempt)).toHaveLength(15 - SIGN_IN_LIMITS.perEmailAndClient);
    // An attempt the gateway could not check is taken back: room for one more.
    await limiter.notChecked(attempts.find((attempt) => 'counted' in attempt)!);
    expect(await limiter.attempt(`race-${run}@loja.example`, `client-${run}-r`)).toMatchObject({ counted: expect.any(Array) });
  });

  it('refuses a client address guessing many emails, and not another address', async () => {
    const { limiter } = limiterSleeping();
    for (let i = 0; i < SIGN_IN_LIMITS.perClient; i++) await wrong(limiter, `guess-${i}-${run}@loja.example`, `client-${run}-c`);
    expect(await limiter.attempt(`another-${run}@loja.example`, `client-${run}-c`)).toEqual({ refusedFor: expect.any(Number) });
    expect(await limiter.attempt(`another-${run}@loja.example`, `client-${run}-d`)).toMatchObject({ delayMs: 0 });
  });

  it('counts unknown sign-in links against the client address alone', async () => {
    const { limiter } = limiterSleeping();
    for (let i = 0; i < SIGN_IN_LIMITS.perClient; i++) expect(await wrong(limiter, undefined, `client-${run}-e`)).toMatchObject({ delayMs: 0 });
    expect(await limiter.attempt(undefined, `client-${run}-e`)).toEqual({ refusedFor: expect.any(Number) });
    expect(await limiter.attempt(`someone-${run}@loja.example`, `client-${run}-e`)).toEqual({ refusedFor: expect.any(Number) });
    expect(await limiter.attempt(undefined, `client-${run}-f`)).toMatchObject({ delayMs: 0 });
  });
});
