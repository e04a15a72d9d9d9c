import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ConsoleRole } from '@pixauto/contracts';

/** Who is signed in, as the console server keeps it (never in the browser: the cookie carries only the session id). */
export interface ConsoleSession {
  user_id: string;
  account_id: string;
  email: string;
  role: ConsoleRole;
  /** The session's CSRF token: every request that changes something carries it in X-CSRF-Token. */
  csrf_token: string;
  /** Epoch milliseconds of the sign-in: the session ends sessionMaxSeconds after it, however active. */
  signed_in_at: number;
}

export const SESSION_COOKIE = 'pixauto_console_session';

/** Redis keeps the session under a hash of its id: a copy of Redis holds no id a browser could present. */
const keyOf = (sessionId: string): string => `console:session:${createHash('sha256').update(sessionId).digest('base64url')}`;
const newToken = (): string => randomBytes(32).toString('base64url');

/** Server-side sessions in Redis: sliding idle expiry, a hard maximum, ended by sign-out. */
export class Sessions {
  constructor(
    private readonly redis: Redis,
    private readonly idleSeconds: number,
    private readonly maxSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async start(user: Omit<ConsoleSession, 'csrf_token' | 'signed_in_at'>): Promise<{ sessionId: string; session: ConsoleSession }> {
    const sessionId = newToken();
    const session: ConsoleSession = { ...user, csrf_token: newToken(), signed_in_at: this.now() };
    await this.redis.set(keyOf(sessionId), JSON.stringify(session), 'EX', this.idleSeconds);
    return { sessionId, session };
  }

  /** The session of this id, its idle expiry pushed back; undefined when absent, ended or past its maximum. */
  async find(sessionId: string | undefined): Promise<ConsoleSession | undefined> {
    if (!sessionId) return undefined;
    const key = keyOf(sessionId);
    const stored = await this.redis.getex(key, 'EX', this.idleSeconds);
    if (!stored) return undefined;
    const session = JSON.parse(stored) as ConsoleSession;
    if (this.now() - session.signed_in_at > this.maxSeconds * 1000) {
      await this.redis.del(key);
      return undefined;
    }
    return session;
  }

  async end(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.redis.del(keyOf(sessionId));
  }
}

/** Whether `presented` is the session's CSRF token, in constant time. */
export function csrfMatches(session: ConsoleSession, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(session.csrf_token);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
