import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ConsoleRole } from '@pixauto/contracts';

/** Who is signed in, as the console server keeps it (never in the browser: the cookie carries only the session id). */
export interface ConsoleSession {
  user_id: string;
  account_id: string;
  email: string;
  role: ConsoleRole;
  /** The account's name, read at sign-in: the console shows whose account it is. */
  account_name?: string;
  /** The session's CSRF token: every request that changes something carries it in X-CSRF-Token. */
  csrf_token: string;
  /** Epoch milliseconds of the sign-in: the session ends sessionMaxSeconds after it, however active. */
  signed_in_at: number;
  /** Epoch milliseconds of the last check that the user still exists, with this role (see Sessions.recheck). */
  checked_at: number;
}

/** How often a session checks its user against the platform: a change the operator makes applies within this. */
export const USER_RECHECK_MS = 60_000;

export const SESSION_COOKIE = 'pixauto_console_session';

/** Redis keeps the session under a hash of its id: a copy of Redis holds no id a browser could present. */
const keyOf = (sessionId: string): string => `console:session:${createHash('sha256').update(sessionId).digest('base64url')}`;
const newToken = (): string => randomBytes(32).toString('base64url');
/** The keys of a user's sessions: so that removing the user, or a new password, ends them all at once. */
const userSessionsOf = (userId: string): string => `console:user-sessions:${userId}`;

/** Server-side sessions in Redis: sliding idle expiry, a hard maximum, ended by sign-out. */
export class Sessions {
  constructor(
    private readonly redis: Redis,
    private readonly idleSeconds: number,
    private readonly maxSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async start(user: Omit<ConsoleSession, 'csrf_token' | 'signed_in_at' | 'checked_at'>): Promise<{ sessionId: string; session: ConsoleSession }> {
    const sessionId = newToken();
    const now = this.now();
    const session: ConsoleSession = { ...user, csrf_token: newToken(), signed_in_at: now, checked_at: now };
    const key = keyOf(sessionId);
    await this.redis
      .multi()
      .set(key, JSON.stringify(session), 'EX', this.idleSeconds)
      .sadd(userSessionsOf(user.user_id), key)
      .expire(userSessionsOf(user.user_id), this.maxSeconds)
      .exec();
    return { sessionId, session };
  }

  /** Ends every session of the user but `exceptSessionId`'s (the one that asked, when it stays signed in). */
  async endAllOf(userId: string, exceptSessionId?: string): Promise<void> {
    const kept = exceptSessionId === undefined ? undefined : keyOf(exceptSessionId);
    const ended = (await this.redis.smembers(userSessionsOf(userId))).filter((key) => key !== kept);
    if (ended.length > 0)
      await this.redis
        .multi()
        .del(...ended)
        .srem(userSessionsOf(userId), ...ended)
        .exec();
  }

  /**
   * The session as its user now is: once a minute it asks `roleOf` (the platform) for the user's role, so that a user
   * the operator removed is signed out, and one whose role they changed acts with the new one, within a minute (the
   * console's own changes apply at once). Undefined, and ended, when the user is gone. When the platform cannot be
   * asked, the session goes on as it was, and asks again at its next request.
   */
  async recheck(
    sessionId: string,
    session: ConsoleSession,
    roleOf: (session: ConsoleSession) => Promise<ConsoleRole | undefined>,
  ): Promise<ConsoleSession | undefined> {
    const now = this.now();
    if (now - session.checked_at < USER_RECHECK_MS) return session;
    let role: ConsoleRole | undefined;
    try {
      role = await roleOf(session);
    } catch {
      return session;
    }
    if (role === undefined) {
      await this.endAllOf(session.user_id);
      return undefined;
    }
    const checked = { ...session, role, checked_at: now };
    await this.redis.set(keyOf(sessionId), JSON.stringify(checked), 'KEEPTTL', 'XX');
    return checked;
  }

  /** The user's sessions act with their new role from their next request. */
  async changeRole(userId: string, role: ConsoleRole): Promise<void> {
    for (const key of await this.redis.smembers(userSessionsOf(userId))) {
      const stored = await this.redis.get(key);
      if (!stored) continue;
      // XX: a session ended meanwhile stays ended.
      await this.redis.set(key, JSON.stringify({ ...(JSON.parse(stored) as ConsoleSession), role }), 'KEEPTTL', 'XX');
    }
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
