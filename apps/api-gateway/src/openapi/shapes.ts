import type { ChargeResponse, Pagination, PayoutResponse } from '@pixauto/contracts';

// Shapes the OpenAPI documents name that have no class of their own in the code: bodies checked by hand
// (libs/contracts validate* functions) and the envelopes of list answers. ts-json-schema-generator reads this file
// and the contracts' response interfaces (npm run api:generate); nothing here is used at run time. The JSDoc comments
// are what merchants read in the API reference: merchant words, no internal references.

// PATCH /v2/automatic-pix/charges/:charge_id.
/** Cancels a charge that has not been paid. */
export interface CancelChargeRequest {
  /** Only `CANCELLED`. */
  status: 'CANCELLED';
}

// POST .../charges/:charge_id/reschedule and .../retry.
/** A new date for the charge's debit. */
export interface ChargeDateRequest {
  /** The date of the debit, YYYY-MM-DD (Brasília time). A reschedule's date must be after today and before the next cycle's; a retry's, 1 to 7 days after the due date. */
  date: string;
}

// GET /v2/automatic-pix/recurrences/:recurrence_id/charges.
/** The charges of a recurrence. */
export interface ChargeListResponse {
  /** Every charge created so far, by due date (on journey 3 the activation comes first). */
  charges: ChargeResponse[];
}

// GET /v2/automatic-pix/charges.
/** One page of the charges of all your recurrences due in the period asked. */
export interface ChargePageResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's charges, by due date. */
  charges: ChargeResponse[];
}

// POST /v2/sandbox/solicitations/:solicitation_id/answer (sandbox).
/** The payer's answer to a solicitation. */
export interface SandboxAnswerRequest {
  /** `ACCEPT`: the recurrence becomes APPROVED (JOURNEY_1). `REJECT`: it becomes REJECTED. */
  decision: 'ACCEPT' | 'REJECT';
}

// POST /v2/sandbox/clock/advance.
/** How far to move the account's test clock forward: at least one of the two, at most 3660 days in all. */
export interface SandboxClockAdvanceRequest {
  /** Days to advance, a non-negative integer. */
  days?: number;
  /** Hours to advance, a non-negative integer. */
  hours?: number;
}

// POST /v2/sandbox/transactions/:id/refund.
/** How much of the Pix charge the service refunds. */
export interface SandboxRefundRequest {
  /** Amount to refund, in reais with up to 2 decimal places, at most what is left of the charge. Absent: everything that is left. */
  amount?: number;
}

// POST /v2/disputes/:id/defence.
/** Your defence of a dispute: what happened, and the files that show it. Accepted once, until the dispute's `defence_deadline`. */
export interface DisputeDefenceRequest {
  /** Your account of the payment, 1 to 5000 characters. */
  text: string;
  /** Up to 3 files, each at most 200 KiB: a PDF, PNG or JPEG whose content matches its `content_type`. */
  evidence?: {
    /** The file's name, 1 to 200 characters. */
    file_name: string;
    /** application/pdf, image/png or image/jpeg. */
    content_type: 'application/pdf' | 'image/png' | 'image/jpeg';
    /** The file's bytes, base64-encoded. */
    content_base64: string;
  }[];
}

// GET /v2/disputes/:id/evidence/:evidence_id.
/** An evidence file of your defence. */
export interface DisputeEvidenceResponse {
  /** The file's `id` in the dispute's `defence.evidence`. */
  id: number;
  /** The name you gave it. */
  file_name: string;
  /** application/pdf, image/png or image/jpeg. */
  content_type: string;
  /** The file's bytes, base64-encoded, as you sent them. */
  content_base64: string;
}

// POST /v2/sandbox/transactions/:id/dispute.
/** The dispute the sandbox's payer's bank opens on a paid Pix charge: why, how it ends, and when (days on your test clock). */
export interface SandboxDisputeRequest {
  /** FRAUD (the default), OPERATIONAL_FLAW or PIX_AUTOMATICO: the return's natureza follows it (MED_FRAUDE, MED_OPERACIONAL, MED_PIX_AUTOMATICO). */
  reason?: 'FRAUD' | 'OPERATIONAL_FLAW' | 'PIX_AUTOMATICO';
  /** RETURNED (the default: the blocked amount goes back to the payer), PARTIALLY_RETURNED (half of it) or REJECTED (released). */
  outcome?: 'RETURNED' | 'PARTIALLY_RETURNED' | 'REJECTED';
  /** The claim, in reais, at most what was paid. Absent: the whole payment. */
  amount?: number;
  /** Days you have to defend, 1 to 30 (default 7). */
  defence_days?: number;
  /** Days after opening when the bank concludes, after `defence_days`, at most 60 (default `defence_days` + 1). */
  conclude_after_days?: number;
}

// POST /v2/sandbox/payouts/:id/status.
/** The status the bank moves the payout to. */
export interface SandboxPayoutStatusRequest {
  /** 4: processing. 1: completed. 2: canceled. 3: rejected. A payout at 1, 2 or 3 can no longer change. */
  status: number;
}

// POST /v2/sandbox/payouts/:id/return. The class in libs/contracts (payout-return.ts) gives the document's schema.
/** What the receiving bank sends back. */
export interface SandboxPayoutReturnRequest {
  /** Amount sent back, in reais, at most what is left of the payout. Absent: everything that is left. */
  amount?: number;
  /** The identifier the payout will show as `refund_id`: 1 to 35 letters and digits. Absent: the bank's own return id. */
  refund_id?: string;
}

// GET /v2/withdrawals/period.
/** One page of payouts created in the requested period, oldest first. */
export interface PayoutPageResponse {
  /** How many payouts match, across all pages. */
  count_data: number;
  /** The page returned, counted from 1. */
  page: number;
  /** The page size applied. */
  size: number;
  /** How many pages the whole result has. */
  count_pages: number;
  /** This page's payouts, oldest first (without `bank.bank_name` and `refund_id`); empty past the last page. */
  data: PayoutResponse[];
}

// GET /v2/withdrawals/customer.
/** Every payout to one beneficiary. */
export interface PayoutsByCustomerResponse {
  /** The beneficiary's whole history, oldest first (without `webhook`, `e2e`, `psp_id`, `bank.bank_name` and `refund_id`). */
  data: PayoutResponse[];
  /** How many payouts there are. */
  total: number;
}
