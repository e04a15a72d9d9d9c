// What an account is made of, shared by the operator API's bodies (account.dto.ts) and the account events.

export const CASHIN_PROVIDERS = ['PROVIDER_A', 'PROVIDER_B', 'PROVIDER_C'] as const;
/** A bank the platform works with: it receives an account's Pix charges and makes its payouts. */
export type CashinProvider = (typeof CASHIN_PROVIDERS)[number];
// The banks whose refund receipts the platform can fetch (docs/decisions/receipts.md).
export const RECEIPT_PROVIDERS = ['PROVIDER_A', 'PROVIDER_B'] as const;
/** A bank whose receipts (of refunds and payouts) the platform can fetch. */
export type ReceiptProvider = (typeof RECEIPT_PROVIDERS)[number];

// Generous by default (one merchant at 1,000 req/s is not throttled); an operator lowers it for an account that
// misbehaves. The JSDoc is what operators read in the admin API reference.
/** Requests per second each API key of the account may make, per environment; beyond it, requests answer 429. */
export interface RateLimits {
  /** Requests per second for each production key. */
  production: number;
  /** Requests per second for each sandbox key. */
  sandbox: number;
}
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = { production: 5000, sandbox: 5000 };
export const MAX_RATE_LIMIT = 100_000;
