import { createHash } from 'node:crypto';
import { Environment } from '@pixauto/contracts';
import { compareDates } from '@pixauto/pix';
import { isDueForCreation } from './charge';
import { ChargeCommand, chargeableFrom, nextCycleOf, Recurrence, recurrence, RecurrenceEvent } from './recurrence';

// What the cycle scheduler is to do for one recurrence on its tenant's today (docs/decisions/charges.md):
// decided here, purely, so the scheduler only carries it out (the bank's debits first, then the events).

/** A charge's ids, derived from what it is, so a repeated attempt after a crash names the same charge and debit. */
const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
export const cycleChargeId = (recurrenceId: string, nominalDate: string): string => {
  const h = digest(`charge:${recurrenceId}:${nominalDate}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};
export const cycleTxid = (recurrenceId: string, nominalDate: string, reschedules: number): string =>
  digest(`cobr:${recurrenceId}:${nominalDate}:${reschedules}`).slice(0, 32);

export interface PlannedCharge {
  command: Extract<ChargeCommand, { type: 'IssueCharge' }>;
  /** What the command records, and the recurrence after it (with the charges planned before it). */
  events: RecurrenceEvent[];
  state: Recurrence;
  /** The day the bank is to see the debit created on: its creation day, or the approval's when that came later. */
  asOf: string;
}

export interface CyclePlan {
  /** In cycle order: each is issued only once the ones before it are. */
  charges: PlannedCharge[];
  /**
   * When a production skip leaves the next creation day elsewhere than the projection puts it (counting from the
   * approval day): that day, or null when no charge is to come. Undefined when the projection's value stands.
   */
  postponeTo?: string | null;
}

/**
 * Every cycle charge due by `today`. Production cannot date a debit in the past: a cycle missed while the scheduler
 * was down is skipped. The sandbox catches up instead, acting as of each cycle's own creation day, so a clock
 * advance plays every cycle in order.
 */
export function planDueCharges(r: Recurrence, environment: Environment, today: string): CyclePlan {
  const charges: PlannedCharge[] = [];
  let state = r;
  while (state.status === 'APPROVED') {
    const approvedOn = chargeableFrom(state);
    const notBefore = environment === 'production' && compareDates(today, approvedOn) > 0 ? today : approvedOn;
    const next = nextCycleOf(state, notBefore);
    if (!next || !isDueForCreation(next, today)) {
      const at = next?.creation_date ?? null;
      const projected = notBefore === approvedOn ? next : nextCycleOf(state); // what the projection writes
      return at === (projected?.creation_date ?? null) ? { charges } : { charges, postponeTo: at };
    }
    const recurrenceId = state.data.recurrence_id;
    const command = {
      type: 'IssueCharge',
      next,
      charge_id: cycleChargeId(recurrenceId, next.nominal_date),
      txid: cycleTxid(recurrenceId, next.nominal_date, 0),
    } as const;
    const decision = recurrence.decide(command, state);
    if (!decision.ok || decision.events.length === 0) break;
    state = decision.events.reduce(recurrence.evolve, state) as Recurrence;
    charges.push({ command, events: decision.events, state, asOf: compareDates(next.creation_date, approvedOn) > 0 ? next.creation_date : approvedOn });
  }
  return { charges };
}
