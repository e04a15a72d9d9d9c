import { centavosToReais } from '@pixauto/pix';
import { PayoutRecordData, PayoutStatusCode } from './payout.events';

/** The payout record of service-api.md 2.3 as the API shows it. */
export interface PayoutResponse {
  id: number;
  transaction_id: string;
  name: string;
  document_number: string;
  document_type: string;
  currency: 'BRL';
  amount: number;
  status: PayoutStatusCode;
  bank: { type: 'PIX'; bank_name?: string | null; ispb: string | null; account_agency: string | null; account_number: string | null };
  webhook?: string | null;
  created_at: string;
  paid_at?: string;
  e2e?: string;
  psp_id?: string;
  /** Once the receiving bank returned the payout (the latest return's), for GET /v2/withdrawals/refund/receipt. */
  refund_id?: string;
}

/**
 * 2.3's forms: `by_id` (creation, by id or transaction_id) names the bank; `period` does not; `customer` also leaves
 * out webhook, e2e and psp_id. paid_at, e2e and psp_id are present once known ("present if processed").
 */
export type PayoutForm = 'by_id' | 'period' | 'customer';

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

/** The status codes' names (3.3, first table), for messages. */
export const PAYOUT_STATUS_NAMES: Record<PayoutStatusCode, string> = { 0: 'created', 1: 'completed', 2: 'canceled', 3: 'rejected', 4: 'processing' };
