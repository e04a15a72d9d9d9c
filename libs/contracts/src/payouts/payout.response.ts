import { centavosToReais } from '@pixauto/pix';
import { PayoutRecordData, PayoutStatusCode } from './payout.events';

// The payout record (docs/api/payouts.md) as the API shows it. The JSDoc is what merchants read in the API reference.
/**
 * A payout (cash-out): money sent by Pix to a Pix key or a bank account. It starts at status 0 and the bank moves it,
 * usually within seconds, to 4 (processing) and then 1 (completed), or to 2 (canceled) or 3 (rejected).
 */
export interface PayoutResponse {
  /** Unique identifier of the payout (an integer), assigned at creation. */
  id: number;
  /** Your identifier of the payout, as sent at creation. */
  transaction_id: string;
  /** The beneficiary's name: as sent, then as the receiving bank names the account holder once it has processed the payout. */
  name: string;
  /** The beneficiary's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation. */
  document_number: string;
  /** `CPF` or `CNPJ`: which one `document_number` is. */
  document_type: string;
  /** Always `BRL`. */
  currency: 'BRL';
  /** Amount paid out, in reais with up to 2 decimal places. */
  amount: number;
  /** 0: created, awaiting processing. 4: processing. 1: completed. 2: canceled. 3: rejected. 1, 2 and 3 are final. */
  status: PayoutStatusCode;
  /** The receiving account. For a payout to a Pix key its fields are null until the bank has resolved the key. */
  bank: {
    /** Always `PIX`. */
    type: 'PIX';
    /** The receiving institution's name as the bank gives it; null until the bank has answered. Only in the answer to creation, GET /v2/withdrawals and webhooks. */
    bank_name?: string | null;
    /** The receiving institution's ISPB (8 digits); null until known. */
    ispb: string | null;
    /** The receiving branch; null until known. */
    account_agency: string | null;
    /** The receiving account number; null until known. */
    account_number: string | null;
  };
  /** The URL that receives the payout's events; null: no notifications. Not in the by-customer search. */
  webhook?: string | null;
  /** When the payout was created, ISO 8601 in UTC with milliseconds. */
  created_at: string;
  /** When the payout was paid, ISO 8601 in UTC; absent until it is completed. */
  paid_at?: string;
  /** The Pix end-to-end identifier of the payment; absent until the bank has sent it, and in the by-customer search. */
  e2e?: string;
  /** The payout's identifier at the bank that processes it; absent until known, and in the by-customer search. */
  psp_id?: string;
  /**
   * Once the receiving bank has sent the payout back (wholly or in part): the latest return's identifier, for
   * GET /v2/withdrawals/refund/receipt. Only in the answer to creation, GET /v2/withdrawals and webhooks.
   */
  refund_id?: string;
}

/**
 * The record's forms: `by_id` (creation, by id or transaction_id) names the bank; `customer` leaves out the bank's name,
 * webhook, e2e and psp_id. paid_at, e2e and psp_id are present once known ("present if processed"). The `period` form
 * (by_id without the bank's name and refund_id) is written by PostgreSQL, page by page (PERIOD_ITEM_JSON in
 * @pixauto/payout-query).
 */
export type PayoutForm = 'by_id' | 'customer';

export function payoutResponse(payout: PayoutRecordData, form: PayoutForm = 'by_id'): PayoutResponse {
  const { bank } = payout;
  return {
    id: payout.id,
    transaction_id: payout.transaction_id,
    name: payout.name,
    document_number: payout.document_number,
    document_type: payout.document_type,
    currency: 'BRL',
    amount: centavosToReais(payout.amount_centavos),
    status: payout.status,
    bank: {
      type: 'PIX',
      ...(form === 'by_id' && { bank_name: bank.bank_name }),
      ispb: bank.ispb,
      account_agency: bank.account_agency,
      account_number: bank.account_number,
    },
    ...(form !== 'customer' && { webhook: payout.webhook }),
    created_at: payout.created_at,
    ...(payout.paid_at !== null && { paid_at: payout.paid_at }),
    ...(form !== 'customer' && payout.e2e !== null && { e2e: payout.e2e }),
    ...(form !== 'customer' && payout.psp_id !== null && { psp_id: payout.psp_id }),
    ...(form === 'by_id' && payout.returns?.length && { refund_id: payout.returns[payout.returns.length - 1].refund_id }),
  };
}

/** The status codes' names, for messages. */
export const PAYOUT_STATUS_NAMES: Record<PayoutStatusCode, string> = { 0: 'created', 1: 'completed', 2: 'canceled', 3: 'rejected', 4: 'processing' };
