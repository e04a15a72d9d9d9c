import { retryDelayMs } from './retry-schedule';

// What one attempt's result does to its delivery (docs/api/webhooks.md#retries). Pure, so every rule is a unit test.

/** What came back: an HTTP status, or no answer at all (`down`: refused, reset, timed out) or a refused target. */
export type AttemptResult = { kind: 'answered'; statusCode: number } | { kind: 'down'; error: string } | { kind: 'refused'; error: string };

export type DeliveryChange =
  | { status: 'delivered' }
  /** 410 Gone: this URL takes nothing more for this resource. */
  | { status: 'gone'; error: string }
  | { status: 'retry'; error: string; delayMs: number }
  | { status: 'failed'; error: string }
  /** A manual attempt that failed: the delivery keeps its status and its schedule. */
  | { status: 'unchanged'; error: string };

export function errorOf(result: AttemptResult): string | null {
  if (result.kind !== 'answered') return result.error;
  if (result.statusCode >= 200 && result.statusCode < 300) return null;
  // Redirects are not followed: a webhook URL that moved must be changed by the merchant.
  return result.statusCode >= 300 && result.statusCode < 400 ? `HTTP ${result.statusCode} (redirects are not followed)` : `HTTP ${result.statusCode}`;
}

/**
 * 2xx is delivered; 410 stops; anything else waits for the next attempt of the schedule, or fails the delivery
 * after the last. `scheduledAttempts` counts this attempt when it was a scheduled one.
 */
export function afterAttempt(result: AttemptResult, manual: boolean, scheduledAttempts: number, random: () => number = Math.random): DeliveryChange {
  const error = errorOf(result);
  if (error === null) return { status: 'delivered' };
  if (result.kind === 'answered' && result.statusCode === 410)
    return { status: 'gone', error: 'HTTP 410 Gone: deliveries of this resource to this URL stopped' };
  if (manual) return { status: 'unchanged', error };
  const delayMs = retryDelayMs(scheduledAttempts, random);
  return delayMs === null ? { status: 'failed', error } : { status: 'retry', error, delayMs };
}
