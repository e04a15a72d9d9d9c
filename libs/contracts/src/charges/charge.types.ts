// A charge of a recurrence (docs/decisions/charges.md): one per cycle, plus the journey 3 activation payment.
// The JSDoc below is what merchants read in the API reference.

export const CHARGE_TYPES = ['cycle', 'activation'] as const;
/** cycle: one cycle's scheduled debit. activation: the journey 3 immediate payment made when the payer authorized. */
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const CHARGE_STATUSES = ['SCHEDULED', 'PAID', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
/**
 * Where a charge stands. SCHEDULED: a debit attempt is pending. PAID: the payer's bank debited it. FAILED: the last
 * attempt was refused (it may be retried when the recurrence allows it). CANCELLED: you cancelled it (an unpaid journey 3
 * activation is also cancelled with its recurrence). EXPIRED: a journey 3 activation that was not paid in time.
 */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/**
 * A charge of a recurrence: one per cycle, created `charge_lead_days` before its due date once the recurrence is
 * APPROVED, and debited by the payer's bank on the due date; on journey 3 also the activation payment.
 */
export interface ChargeResponse {
  /** Unique identifier of the charge. */
  charge_id: string;
  /** The recurrence the charge belongs to. */
  recurrence_id: string;
  /** `cycle` for a scheduled cycle, `activation` for the journey 3 immediate payment. */
  type: ChargeType;
  /** Amount to debit, in reais (BRL) with up to 2 decimal places. */
  amount: number;
  /**
   * The day the payer's bank debits the charge, YYYY-MM-DD (Brasília time): already moved to a business day when
   * the recurrence has `business_day_adjust`, and the new date after a reschedule. A retry keeps the due date.
   */
  due_date: string;
  /** Where the charge stands; see ChargeStatus. */
  status: ChargeStatus;
  /** How many retries have been scheduled for the charge (0 to 3). */
  retries: number;
  /** When the charge was created, ISO 8601 in UTC. */
  created_at: string;
  /** When the debit settled, ISO 8601 in UTC; null until the charge is PAID. */
  paid_at: string | null;
}
