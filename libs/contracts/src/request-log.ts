// The console's request log (GET /admin/accounts/{account_id}/requests): an account's API requests, newest first.

/** One API request of the account, as the gateway answered it. */
export interface RequestLogLine {
  /** The account whose key sent it. */
  account_id: string;
  /** The environment of the key: `production` or `sandbox`. */
  environment: 'production' | 'sandbox';
  /** When the gateway received it (ISO 8601, UTC). */
  at: string;
  /** Its `X-Request-Id`: the one sent, or the one the answer carried. */
  request_id: string;
  /** GET, POST, PATCH... */
  method: string;
  /** The path with its query, document numbers masked. */
  path: string;
  /** The HTTP status it was answered. */
  status: number;
  /** From receiving the request to the last byte of the answer. */
  duration_ms: number;
  /** The `Idempotency-Key` it sent; null without one. */
  idempotency_key: string | null;
  /** Which of the account's keys sent it (its id, never the key). */
  key_id: string;
  /** A failed request's body (status 400 and above), redacted; null for a success. */
  request_body: string | null;
  /** A failed request's answer, redacted; null for a success. */
  response_body: string | null;
  /** The email of the console user who made this change in the console (the console's own key); null otherwise. */
  console_user: string | null;
}

/** A page of the request log. */
export interface RequestLogPage {
  /** Newest first. */
  requests: RequestLogLine[];
  /** Pass it as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}
