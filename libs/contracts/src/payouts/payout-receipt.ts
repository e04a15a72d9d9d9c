import { Messages, validation } from '@pixauto/errors';
import { Validated } from '../validation';

// GET /v2/withdrawals/receipt (platform.md §3): the bank's proof a completed payout was paid, fetched live; 2.4's style.
// The JSDoc is what merchants read in the API reference.
/** The bank's proof that a completed payout was paid, as a base64-encoded PDF. */
export interface PayoutReceiptResponse {
  /** Always `payout`. */
  type: 'payout';
  /** The bank that made the payout and issued the receipt: PROVIDER_A or PROVIDER_B. */
  provider: string;
  /** The payout's `id`. */
  id: number;
  /** The payout's `transaction_id`. */
  transaction_id: string;
  /** A file name to save the PDF under, e.g. `payout-<transaction_id>.pdf`. */
  filename: string;
  /** Always `application/pdf`. */
  content_type: 'application/pdf';
  /** The receipt: a PDF file, base64-encoded. */
  pdf: string;
}

const R = Messages.receipts;

/** Exactly one of id and transaction_id (an empty value counts as absent). */
export function validatePayoutReceiptQuery(query: unknown): Validated<{ id: number } | { transaction_id: string }> {
  const sent = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const given = ['id', 'transaction_id'].filter((key) => sent[key] !== undefined && sent[key] !== '');
  if (given.length === 0) return { ok: false, refusal: validation(R.payoutIdentifierRequired) };
  const value = sent[given[0]];
  if (given.length > 1 || typeof value !== 'string') return { ok: false, refusal: validation(R.payoutOnlyOneIdentifier) };
  if (given[0] === 'transaction_id') return { ok: true, value: { transaction_id: value } };
  return /^[1-9]\d{0,15}$/.test(value) ? { ok: true, value: { id: Number(value) } } : { ok: false, refusal: validation(R.idInvalid) };
}
