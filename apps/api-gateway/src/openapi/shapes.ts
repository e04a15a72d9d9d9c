import type { ChargeResponse, PayoutResponse } from '@pixauto/contracts';

// Shapes the OpenAPI documents name that have no class of their own in the code: bodies checked by hand
// (libs/contracts validate* functions) and the envelopes of list answers. ts-json-schema-generator reads this file
// and the contracts' response interfaces (npm run api:generate); nothing here is used at run time.

/** PATCH /v2/automatic-pix/charges/:charge_id (platform.md §3). */
export interface CancelChargeRequest {
  status: 'CANCELLED';
}

/** POST .../charges/:charge_id/reschedule and .../retry (platform.md §3). */
export interface ChargeDateRequest {
  /** YYYY-MM-DD; a reschedule's date must follow today. */
  date: string;
}

/** GET /v2/automatic-pix/recurrences/:recurrence_id/charges: by due date. */
export interface ChargeListResponse {
  charges: ChargeResponse[];
}

/** POST /v2/sandbox/solicitations/:solicitation_id/answer (platform.md §4). */
export interface SandboxAnswerRequest {
  decision: 'ACCEPT' | 'REJECT';
}

/** POST /v2/sandbox/clock/advance: non-negative integers, at least one, at most 3660 days in all. */
export interface SandboxClockAdvanceRequest {
  days?: number;
  hours?: number;
}

/** POST /v2/sandbox/transactions/:id/refund: absent amount refunds what is left. */
export interface SandboxRefundRequest {
  amount?: number;
}

/** POST /v2/sandbox/payouts/:id/status (platform.md §4). */
export interface SandboxPayoutStatusRequest {
  /** 0 to 4 (service-api.md 3.3). */
  status: number;
}

/** POST /v2/sandbox/payouts/:id/return: absent amount returns what is left; absent refund_id takes the bank's. */
export interface SandboxPayoutReturnRequest {
  amount?: number;
  refund_id?: string;
}

/** GET /v2/withdrawals/period (service-api.md 4.9). */
export interface PayoutPageResponse {
  count_data: number;
  page: number;
  size: number;
  count_pages: number;
  data: PayoutResponse[];
}

/** GET /v2/withdrawals/customer (service-api.md 4.10). */
export interface PayoutsByCustomerResponse {
  data: PayoutResponse[];
  total: number;
}
