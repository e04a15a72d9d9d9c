// Payouts (cash-out, docs/decisions/payouts.md): what travels on Topics.payouts (asyncapi.yaml).
// Every event carries the whole payout record as it is after the change, so a follower (payout-query-service,
// the webhook dispatcher) upserts by (tenant, id) and keeps the highest `version`: idempotent and order-tolerant.
// Money in integer centavos.

/**
 * The lookup and period-search codes (docs/decisions/payouts.md: one set of codes everywhere):
 * 0 created, awaiting processing; 1 approved / completed; 2 canceled; 3 rejected; 4 processing.
 */
export const PayoutStatus = { created: 0, completed: 1, canceled: 2, rejected: 3, processing: 4 } as const;
/**
 * A payout's status. 0: created, awaiting processing. 4: processing at the bank. 1: completed (the beneficiary was
 * paid). 2: canceled. 3: rejected (e.g. the Pix key does not exist). 1, 2 and 3 are final.
 */
export type PayoutStatusCode = (typeof PayoutStatus)[keyof typeof PayoutStatus];
export const PAYOUT_STATUS_CODES: readonly PayoutStatusCode[] = [0, 1, 2, 3, 4];
/** A payout in one of these will not change again (and gave its limit reservation back when 2 or 3). */
export const FINAL_PAYOUT_STATUSES: readonly PayoutStatusCode[] = [1, 2, 3];

export type PayoutDocumentType = 'CPF' | 'CNPJ';

/** The payout record in the system's units; the API shows amount in reais. */
export interface PayoutRecordData {
  id: number;
  transaction_id: string;
  name: string;
  document_number: string;
  document_type: PayoutDocumentType;
  amount_centavos: number;
  status: PayoutStatusCode;
  /** What was asked: a Pix key (POST /v2/payout/pix) or an account. */
  pix_key: string | null;
  bank: {
    type: 'PIX';
    /** From the bank's answer (the receiving institution's name), null until it answered. */
    bank_name: string | null;
    /** The receiving institution's COMPE code where the bank named one (CSV `bank_code`). */
    bank_code: string | null;
    ispb: string | null;
    account_agency: string | null;
    account_number: string | null;
  };
  webhook: string | null;
  /** The bank that processes the payout: the account's cashin_provider when it was created. */
  provider: string;
  created_at: string;
  paid_at: string | null;
  e2e: string | null;
  psp_id: string | null;
  /** What the receiving bank sent back of a completed payout, oldest first (absent in events older than returns). */
  returns?: PayoutReturnData[];
}

/**
 * A payout returned by the receiving bank (docs/decisions/payouts.md#returns-a-payout-sent-back): a refund of the payout. `refund_id` is the one the
 * merchant reads on the payout (the bank's return id unless the sandbox named one), `rtr_id` the return's
 * end-to-end id, which the receipt providers know it by.
 */
export interface PayoutReturnData {
  /** Our id for it, from the same sequence as the refunds of cash-in charges (a receipt's `id`). */
  id: number;
  refund_id: string;
  amount_centavos: number;
  rtr_id: string;
  returned_at: string;
}

export interface PayoutReturnedData {
  payout: PayoutRecordData;
  return: PayoutReturnData;
}

export interface PayoutCreatedData {
  payout: PayoutRecordData;
}

export interface PayoutStatusChangedData {
  payout: PayoutRecordData;
  from: PayoutStatusCode;
  to: PayoutStatusCode;
  /** Why it was rejected or cancelled, in the bank's words where it gave some. */
  reason: string | null;
}

export const PayoutEventTypes = {
  created: 'payout.created',
  statusChanged: 'payout.status_changed',
  /** The receiving bank sent (part of) a completed payout back; the status stays completed (1). */
  returned: 'payout.returned',
} as const;
