import { RecurrenceCreatedData } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { Recurrence, recurrence, RecurrenceCommand, RecurrenceEvent } from '../recurrence';

// Test support only (not exported from @pixauto/recurrences): one monthly recurrence, a way to play commands on it, and
// given/when/then (DeciderSpecification) from past events or from the commands that recorded them.

/** Monthly from 2027-01-31 to 2027-06-30, created five days ahead, retries allowed, no activation. */
export const monthlyRecurrence: RecurrenceCreatedData = {
  recurrence_id: 'r1',
  transaction_id: 'assinatura-123',
  object: 'Plano mensal',
  debtor: { document_number: '52998224725', name: 'Maria Silva', email: 'maria@example.com', address: null },
  schedule: { start_date: '2027-01-31', end_date: '2027-06-30', periodicity: 'MONTHLY' },
  amount_centavos: 4990,
  retry_policy: 'ALLOWS_3R_7D',
  business_day_adjust: false,
  charge_lead_days: 5,
  webhook: 'https://shop.example.com/hooks',
  bank: { id_rec: 'RR123', location_id: 7, location_url: 'pix.example.com/rec/7' },
  pix_copy_paste: '000201...',
  activation: null,
};

/** Runs commands one after another from nothing, as the event store would; the state and every event recorded. */
export function runCommands(...commands: RecurrenceCommand[]): { state: Recurrence; events: RecurrenceEvent[] } {
  const events: RecurrenceEvent[] = [];
  for (const command of commands) {
    const decision = recurrence.decide(command, fold(recurrence, events));
    if (!decision.ok) throw new Error(JSON.stringify(decision.refusal));
    events.push(...decision.events);
  }
  return { state: fold(recurrence, events) as Recurrence, events };
}

/** given/when/then on the recurrence decider, from its past events. */
export const givenRecurrence = DeciderSpecification.for(recurrence);

/** given/when/then from the events these commands record, played from nothing. */
export const givenCommands = (...commands: RecurrenceCommand[]) => givenRecurrence(...runCommands(...commands).events);
