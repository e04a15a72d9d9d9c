import { joinProblems, Refusal } from './refusal';

export interface HttpError {
  status: number;
  body: Record<string, unknown>;
  /** Headers the answer must carry (Retry-After on 429 and 503). */
  headers?: Record<string, string>;
}

/** The one mapping from refusals to HTTP status and body (docs/api/README.md#errors). */
export function toHttp(refusal: Refusal): HttpError {
  switch (refusal.kind) {
    case 'validation':
      return { status: 400, body: { type: 'ValidationError', message: joinProblems(refusal.problems) } };
    case 'not_found':
      return { status: 404, body: { message: refusal.message } };
    case 'authentication':
      return { status: refusal.status, body: { code: refusal.code, message: refusal.message } };
    case 'forbidden':
      return { status: 403, body: { message: refusal.message } };
    case 'provider':
      return {
        status: refusal.status,
        body: {
          type: 'ProviderError',
          message: refusal.message,
          ...(refusal.providerCode !== undefined && { provider_code: refusal.providerCode }),
          ...(refusal.violations !== undefined && { violations: refusal.violations }),
        },
      };
    case 'limit_exceeded':
      return { status: 400, body: { type: 'LimitExceededError', message: refusal.message } };
    case 'receipt':
      return {
        status: refusal.status,
        body: { message: refusal.message, ...(refusal.detail !== undefined && { detail: refusal.detail }) },
      };
    case 'unavailable':
      return { status: 503, body: { message: refusal.message }, headers: { 'retry-after': String(refusal.retryAfterSeconds) } };
    case 'rate_limited':
      return { status: 429, body: { message: refusal.message }, headers: { 'retry-after': String(refusal.retryAfterSeconds) } };
    default: {
      const unreachable: never = refusal;
      return unreachable;
    }
  }
}

/** What an unexpected failure looks like to a merchant: no stack, no internals. */
export const internalError = (): HttpError => ({ status: 500, body: { message: 'Internal server error' } });
