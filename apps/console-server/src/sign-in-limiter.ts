import type { Redis } from 'ioredis';

/**
 * What failed sign-ins cost (docs/decisions/console.md "Sign-in attempts"), within a window of 15 minutes:
 * - one client address failing one email: its 6th attempt is refused until the window ends (its own failures only);
 * - one client address failing any emails: its 21st attempt is refused the same way;
 * - everyone failing one email: each attempt on it waits, half a second more per failure past the 5th, at most 5
 *   seconds, and is then checked: nobody else's failures ever refuse the right password.
 */
export const SIGN_IN_LIMITS = { perEmailAndClient: 5, perClient: 20, windowSeconds: 15 * 60, freeEmailFailures: 5, delayStepMs: 500, maxDelayMs: 5000 };

/** An attempt counted before it is checked: refused (seconds to wait), or let through after `delayMs`. */
export type SignInAttempt = { refusedFor: number } | { delayMs: number; counted: string[] };

/**
 * Counts each attempt before it is checked, atomically (so that concurrent guesses cannot all slip under a bound):
 * every counter goes up at once; an attempt past its own client's bounds is taken back and refused with the seconds
 * left; otherwise it goes through, after the delay the email's failures call for.
 * KEYS: the counters, the email's last. ARGV: the window, then each counter's bound (0: none, the email's).
 */
const ATTEMPT = `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
local wait = 0
for i, key in ipairs(KEYS) do
  local bound = tonumber(ARGV[i + 1])
  if bound > 0 and counts[i] > bound then wait = math.max(wait, redis.call('TTL', key), 1) end
end
if wait > 0 then
  for _, key in ipairs(KEYS) do redis.call('DECR', key) end
  return {wait, 0}
end
return {0, counts[#KEYS] - 1}
`;

/**
 * Slows password guessing without locking anyone out: failures are counted in Redis (shared by every console server)
 * per client address (the address the configured proxies vouch for, CONSOLE_TRUSTED_PROXIES), per email and client,
 * and per email. A client past its own bounds is refused for the rest of the window; the failures of others on an
 * email only delay its attempts. The same counts hold back a wrong current password at a password change, and unknown
 * sign-in links (per client address alone: a link names no email).
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** The counters of an attempt, with their bounds; the email's (a delay, never a refusal) last. */
  private counters(email: string | undefined, client: string): Array<[key: string, bound: number]> {
    if (email === undefined) return [[`console:sign-in:client:${client}`, SIGN_IN_LIMITS.perClient]];
    const address = email.trim().toLowerCase();
    return [
      [`console:sign-in:client:${client}`, SIGN_IN_LIMITS.perClient],
      [`console:sign-in:email-client:${address}:${client}`, SIGN_IN_LIMITS.perEmailAndClient],
      [`console:sign-in:email:${address}`, 0],
    ];
  }

  /** Counts the attempt before anything is checked: refused, or let through once the email's delay has passed. */
  async attempt(email: string | undefined, client: string): Promise<SignInAttempt> {
    const counters = this.counters(email, client);
    const [refusedFor, emailFailures] = (await this.redis.eval(
      ATTEMPT,
      counters.length,
      ...counters.map(([key]) => key),
      SIGN_IN_LIMITS.windowSeconds,
      ...counters.map(([, bound]) => bound),
    )) as [number, number];
    if (refusedFor > 0) return { refusedFor };
    const delayMs = email === undefined ? 0 : delayAfter(emailFailures);
    if (delayMs > 0) await this.sleep(delayMs);
    return { delayMs, counted: counters.map(([key]) => key) };
  }

  /** The attempt was not a guess after all (the check could not run): taken back. */
  async notChecked(attempt: SignInAttempt): Promise<void> {
    if (!('counted' in attempt)) return;
    const multi = this.redis.multi();
    for (const key of attempt.counted) multi.decr(key);
    await multi.exec();
  }

  /**
   * The right password: this attempt is taken back, and the client's failures on this email are forgotten (not the
   * client's on other emails, nor the email's from elsewhere: one client guessing many emails stays slowed).
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    if (!('counted' in attempt)) return;
    const multi = this.redis.multi();
    for (const key of attempt.counted) {
      if (key.startsWith('console:sign-in:email-client:')) multi.del(key);
      else multi.decr(key);
    }
    await multi.exec();
  }
}

/** How long an attempt on an email waits, given the failures others made on it in the window. */
export function delayAfter(emailFailures: number): number {
  const past = emailFailures - SIGN_IN_LIMITS.freeEmailFailures + 1;
  return past <= 0 ? 0 : Math.min(SIGN_IN_LIMITS.maxDelayMs, past * SIGN_IN_LIMITS.delayStepMs);
}

/**
 * The check of a counted attempt: when it could not run (the gateway busy or unreachable, a new password the rules
 * refuse), the attempt was no guess and is taken back before the refusal goes on.
 */
export async function checked<T>(limiter: SignInLimiter, attempt: SignInAttempt, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    await limiter.notChecked(attempt);
    throw error;
  }
}
