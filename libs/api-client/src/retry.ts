// Retries of an answer that says "later" (429 Too Many Requests, 503 Service Unavailable), as its Retry-After asks.
// A POST is retried with the same Idempotency-Key (the client sets it before this fetch sees the request), so a retry
// the first attempt had in fact done is answered, not done twice.

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 2. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the answer is returned. Default 60 s. */
  maxDelayMs?: number;
  /** Waits this long; a test passes its own. */
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED = new Set([429, 503]);

/**
 * How long an answer's Retry-After asks to wait: seconds, or an HTTP date counted from the answer's own Date (the
 * server's clock, not ours, which may be off); without a usable one, 0.5 s, 1 s, 2 s...
 */
export function retryDelayMs(headers: Headers, attempt: number): number {
  const retryAfter = headers.get('retry-after')?.trim() ?? '';
  if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const until = Date.parse(retryAfter);
  const now = Date.parse(headers.get('date') ?? '');
  if (!Number.isNaN(until) && !Number.isNaN(now)) return Math.max(0, until - now);
  return 500 * 2 ** attempt;
}

/** A fetch that sends a request again, as it was, while the answer is 429 or 503 and retries are left. */
export function retryingFetch(fetch: typeof globalThis.fetch = globalThis.fetch, options: RetryOptions = {}): typeof globalThis.fetch {
  const { maxRetries = 2, maxDelayMs = 60_000, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } = options;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(request.clone());
      if (!RETRIED.has(response.status) || attempt >= maxRetries) return response;
      const delay = retryDelayMs(response.headers, attempt);
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
