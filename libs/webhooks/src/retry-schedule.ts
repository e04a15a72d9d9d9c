// When a failed delivery is tried again (docs/api/webhooks.md#retries: with backoff, for about three days): Svix's
// schedule with two more days, ten attempts over 3 days 3 hours. Each wait varies by up to ±10% so that the
// retries of many deliveries that failed together (an endpoint that was down) do not arrive together.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait before attempt n+1, after n attempts failed: the first attempt is immediate. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 24 * HOUR, 24 * HOUR];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The wait before the next attempt after `attemptsMade` scheduled attempts failed, or null when none is left. */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const delay = RETRY_DELAYS_MS[attemptsMade - 1];
  if (delay === undefined) return null;
  return Math.round(delay * (0.9 + 0.2 * random()));
}
