import { Messages, validation } from '@pixauto/errors';
import { oneIdentifier } from '../one-identifier';
import { recordIdOf } from '../record-id';
import { Validated } from '../validation';

// GET /v2/transactions/refund/receipt (docs/decisions/receipts.md) and GET /v2/withdrawals/refund/receipt: the receipt as the
// bank issued it, fetched live. The JSDoc is what merchants read in the API reference.
/** The bank's receipt of a refund (or of a payout the receiving bank sent back), as a base64-encoded PDF. */
export interface RefundReceiptResponse {
  /** Always `refund`. */
  type: 'refund';
  /** The bank that processed the refund and issued the receipt: PROVIDER_A or PROVIDER_B. */
  provider: string;
  /** Our identifier of the refund (the `id` of the refund, not of the charge). */
  id: number;
  /** The `refund_id` given when the refund was made; null for a refund the service started itself. */
  refund_id: string | null;
  /** What was refunded: the Pix charge, or on the payouts route the payout. */
  transaction: {
    /** Its `id`. */
    id: number;
    /** Its `transaction_id`. */
    transaction_id: string;
  };
  /** A file name to save the PDF under, e.g. `refund-<refund_id>.pdf`. */
  filename: string;
  /** Always `application/pdf`. */
  content_type: 'application/pdf';
  /** The receipt: a PDF file, base64-encoded. */
  pdf: string;
}

/** Which refund's receipt: by the refunded charge's id or transaction_id, or by the refund's own refund_id. */
export type RefundReceiptQuery = { id: number } | { transaction_id: string } | { refund_id: string };

const R = Messages.receipts;

/** Exactly one of refund_id, id and transaction_id (oneIdentifier: an empty value counts as absent). */
export function validateRefundReceiptQuery(query: unknown): Validated<RefundReceiptQuery> {
  const named = oneIdentifier(query, ['refund_id', 'id', 'transaction_id'], { required: R.identifierRequired, onlyOne: R.onlyOneIdentifier });
  if (!named.ok) return named;
  const { key, value } = named.value;
  if (typeof value !== 'string') return { ok: false, refusal: validation(R.onlyOneIdentifier) }; // ?id=1&id=2
  if (key === 'id') {
    const id = recordIdOf(value);
    return id === undefined ? { ok: false, refusal: validation(R.idInvalid) } : { ok: true, value: { id } };
  }
  return { ok: true, value: key === 'refund_id' ? { refund_id: value } : { transaction_id: value } };
}
