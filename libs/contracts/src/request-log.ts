// The console's request log (GET /admin/accounts/{account_id}/requests): an account's API requests, newest first.

/** One API request of the account, as the gateway answered it. */
export interface RequestLogLine {
  account_id: string;
  environment: 'production' | 'sandbox';
  /** When the gateway received it (ISO 8601, UTC). */
  at: string;
  request_id: string;
  method: string;
  /** The path with its query, document numbers masked. */
  path: string;
  status: number;
  /** From receiving the request to the last byte of the answer. */
  duration_ms: number;
  idempotency_key: string | null;
  /** Which of the account's keys sent it (its id, never the key). */
  key_id: string;
  /** A failed request's body (status 400 and above), redacted; null for a success. */
  request_body: string | null;
  /** A failed request's answer, redacted; null for a success. */
  response_body: string | null;
}

/** A page of the request log. */
export interface RequestLogPage {
  /** Newest first. */
  requests: RequestLogLine[];
  /** Pass it as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}
