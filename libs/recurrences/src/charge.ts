import { ChargeStatus, ChargeType, RecurrenceCreatedData } from '@pixauto/contracts';
import { addDays, chargeCreationDate, compareDates, cycleDueDate, firstCycleDueOnOrAfter } from '@pixauto/pix';

// A recurrence's charges (docs/decisions/charges.md): one per cycle while APPROVED, plus the journey 3
// activation. They live in the recurrence's stream, so "one charge per cycle" is decided against the one state
// that knows every cycle already issued, under the stream's optimistic concurrency.

export interface Charge {
  charge_id: string;
  type: ChargeType;
  /** 1, 2, 3...: the order of the cycle charges; null for the activation. */
  cycle: number | null;
  /** The cycle's date before any business-day adjustment; null for the activation. */
  nominal_date: string | null;
  due_date: string;
  amount_centavos: number;
  /** The bank's txid: the debit (cobr) of a cycle, the immediate payment (cob) of the activation. */
  txid: string;
  status: ChargeStatus;
  retries: number;
  /** The date of the pending or last debit attempt: the due date, then each retry's date. */
  attempt_date: string;
  paid_at: string | null;
  /** Reschedules so far: each gives the charge a new debit at the bank. */
  reschedules: number;
}

/** The next cycle to charge, and the day its charge is to be created. */
export interface NextCycle {
  cycle: number;
  nominal_date: string;
  due_date: string;
  creation_date: string;
}

type Schedule = Pick<RecurrenceCreatedData, 'schedule' | 'business_day_adjust' | 'charge_lead_days'>;

/**
 * The first cycle after the last one charged whose due date is on or after `notBefore` (the approval day: earlier
 * cycles were never authorized; in production also today: a debit cannot be dated in the past), following the
 * schedule as it is now (start_date, business_day_adjust and charge_lead_days apply to charges not yet created).
 * Null when the schedule has no further cycle before its end_date.
 */
export function nextCycle(r: Schedule, lastCharged: { cycle: number; nominal_date: string } | null, notBefore: string): NextCycle | null {
  const { schedule, business_day_adjust: adjust } = r;
  const afterLast = lastCharged === null ? 1 : firstCycleDueOnOrAfter(schedule, false, addDays(lastCharged.nominal_date, 1));
  const fromDate = firstCycleDueOnOrAfter(schedule, adjust, notBefore);
  if (afterLast === null || fromDate === null) return null;
  const scheduleCycle = Math.max(afterLast, fromDate);
  const due = cycleDueDate(schedule, scheduleCycle, adjust);
  const nominal = cycleDueDate(schedule, scheduleCycle, false);
  if (due === null || nominal === null) return null;
  return { cycle: (lastCharged?.cycle ?? 0) + 1, nominal_date: nominal, due_date: due, creation_date: chargeCreationDate(due, r.charge_lead_days) };
}

/** Whether a cycle's charge is to be created on `today`. */
export const isDueForCreation = (next: NextCycle, today: string): boolean => compareDates(next.creation_date, today) <= 0;
