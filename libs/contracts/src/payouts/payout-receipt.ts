import { Messages, validation } from '@pixauto/errors';
import { oneIdentifier } from '../one-identifier';
import { recordIdOf } from '../record-id';
import { Validated } from '../validation';

// GET /v2/withdrawals/receipt (docs/decisions/receipts.md#payout-receipts): the bank's proof a completed payout was paid, fetched live.
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

/** Exactly one of id and transaction_id (oneIdentifier: an empty value counts as absent). */
export function validatePayoutReceiptQuery(query: unknown): Validated<{ id: number } | { transaction_id: string }> {
  const named = oneIdentifier(query, ['id', 'transaction_id'], { required: R.payoutIdentifierRequired, onlyOne: R.payoutOnlyOneIdentifier });
  if (!named.ok) return named;
  const { key, value } = named.value;
  if (typeof value !== 'string') return { ok: false, refusal: validation(R.payoutOnlyOneIdentifier) }; // ?id=1&id=2
  if (key === 'transaction_id') return { ok: true, value: { transaction_id: value } };
  const id = recordIdOf(value);
  return id === undefined ? { ok: false, refusal: validation(R.idInvalid) } : { ok: true, value: { id } };
}
