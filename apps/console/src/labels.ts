// The API's codes in the merchant's words: every page shows a status, a frequency or a journey through these, never the code.
import type { SandboxComponents } from '@pixauto/api-client';

type Schemas = SandboxComponents['schemas'];

export const PERIODICITY: Record<Schemas['Periodicity'], string> = {
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
  QUARTERLY: 'Every 3 months',
  SEMIANNUAL: 'Every 6 months',
  ANNUAL: 'Yearly',
};

export const JOURNEY: Record<Schemas['Journey'], string> = {
  AWAITING_DEFINITION: 'Not authorized yet',
  JOURNEY_1: "An alert in the payer's banking app",
  JOURNEY_2: 'The payer scanned the QR code',
  JOURNEY_3: 'The payer scanned the QR code and paid at once',
};

export const RECURRENCE_STATUS: Record<Schemas['RecurrenceStatus'], string> = {
  CREATED: "Awaiting the payer's approval",
  APPROVED: 'Active',
  REJECTED: 'Rejected by the payer',
  EXPIRED: 'Expired unapproved',
  CANCELLED: 'Cancelled',
};

export const CHARGE_STATUS: Record<Schemas['ChargeStatus'], string> = {
  SCHEDULED: 'Scheduled',
  PAID: 'Paid',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};

export const PIX_CHARGE_STATUS: Record<Schemas['PixChargeStatus'], string> = {
  PENDING: 'Awaiting payment',
  PAID: 'Paid',
  EXPIRED: 'Expired',
};

export const DISPUTE_STATUS: Record<Schemas['DisputeResponse']['status'], string> = {
  OPEN: 'Awaiting your defence',
  DEFENDED: 'Defended',
  RETURNED: 'Returned to the payer',
  REJECTED: 'Claim rejected',
};

export const DISPUTE_REASON: Record<Schemas['DisputeResponse']['reason'], string> = {
  FRAUD: 'Fraud',
  OPERATIONAL_FLAW: 'Operational flaw',
  PIX_AUTOMATICO: 'Pix Automático debit disputed',
};

export const REFUND_STATUS: Record<Schemas['RefundStatus'], string> = {
  PROCESSING: 'In progress',
  REFUNDED: 'Refunded',
  FAILED: 'Failed',
};

/** A payout's status code (the API, the CSV and the webhooks give the number). */
export const PAYOUT_STATUS: Record<Schemas['PayoutStatusCode'], string> = {
  0: 'Created',
  4: 'Processing',
  1: 'Completed',
  2: 'Canceled',
  3: 'Rejected by the bank',
};

export const DELIVERY_STATUS: Record<'pending' | 'delivered' | 'failed' | 'cancelled', string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const RETRY_POLICY: Record<Schemas['RetryPolicy'], string> = {
  NOT_ALLOWED: 'No retries',
  ALLOWS_3R_7D: 'Up to 3 retries within 7 days',
};

export const ROLE: Record<'owner' | 'developer' | 'viewer', string> = { owner: 'Owner', developer: 'Developer', viewer: 'Viewer' };

/** A code's words; a code this console does not know yet is shown as it came. */
export const labelOf = <K extends string | number>(labels: Record<K, string>, code: K): string => labels[code] ?? String(code);
