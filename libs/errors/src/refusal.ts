// A refusal is a value: domain code returns it, the HTTP edge turns it into the spec's shape (docs/api/README.md#errors).

export interface Violation {
  property: string;
  reason: string;
}

export type Refusal =
  | { kind: 'validation'; problems: string[] }
  | { kind: 'not_found'; message: string }
  | { kind: 'authentication'; status: 401 | 403; code: number; message: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'provider'; status: number; message: string; providerCode?: string; violations?: Violation[] }
  | { kind: 'limit_exceeded'; message: string }
  | { kind: 'receipt'; status: number; message: string; detail?: string }
  | { kind: 'unavailable'; message: string; retryAfterSeconds: number }
  | { kind: 'rate_limited'; message: string; retryAfterSeconds: number };

export const validation = (...problems: string[]): Refusal => ({ kind: 'validation', problems });
export const notFound = (message: string): Refusal => ({ kind: 'not_found', message });
export const providerError = (status: number, message: string, violations?: Violation[], providerCode?: string): Refusal => ({
  kind: 'provider',
  status,
  message,
  violations,
  providerCode,
});
export const limitExceeded = (message: string): Refusal => ({ kind: 'limit_exceeded', message });
export const receiptError = (status: number, message: string, detail?: string): Refusal => ({
  kind: 'receipt',
  status,
  message,
  detail,
});
/** Overload or an outage: the client is told when to try again (a second is enough for the gateway's own waits). */
export const unavailable = (message: string, retryAfterSeconds = 1): Refusal => ({ kind: 'unavailable', message, retryAfterSeconds });
export const rateLimited = (message: string, retryAfterSeconds: number): Refusal => ({ kind: 'rate_limited', message, retryAfterSeconds });

/** Thrown at the edges (HTTP handlers, guards) to leave with a refusal; domain code returns refusals instead. */
export class RefusalException extends Error {
  constructor(readonly refusal: Refusal) {
    super(describe(refusal));
    this.name = 'RefusalException';
  }
}

export const refuse = (refusal: Refusal): never => {
  throw new RefusalException(refusal);
};

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { kind?: unknown }).kind === 'string' &&
  ['validation', 'not_found', 'authentication', 'forbidden', 'provider', 'limit_exceeded', 'receipt', 'unavailable', 'rate_limited'].includes(
    (value as { kind: string }).kind,
  );

function describe(refusal: Refusal): string {
  return refusal.kind === 'validation' ? joinProblems(refusal.problems) : refusal.message;
}

/** Several field problems come in one message, separated by a period. */
export const joinProblems = (problems: string[]): string => problems.join('. ');
