import {
  ChargeCancelledData,
  ChargeCreatedData,
  ChargeEventTypes,
  ChargeExpiredData,
  ChargeFailedData,
  ChargePaidData,
  ChargeRescheduledData,
  ChargeRetryScheduledData,
  Journey,
  RecurrenceApprovedData,
  RecurrenceCreatedData,
  RecurrenceEventTypes,
  RecurrenceStatus,
  RecurrenceUpdatedData,
  Tenant,
} from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';
import { compareDates } from '@pixauto/pix';
import { Charge, NextCycle, nextCycle } from './charge';

// A recurrence: the payer's mandate (docs/api/recurrences.md, docs/decisions/recurrences.md).

export type RecurrenceEvent =
  | DomainEvent<typeof RecurrenceEventTypes.created, RecurrenceCreatedData>
  | DomainEvent<typeof RecurrenceEventTypes.updated, RecurrenceUpdatedData>
  | DomainEvent<typeof RecurrenceEventTypes.approved, RecurrenceApprovedData>
  | DomainEvent<typeof RecurrenceEventTypes.rejected, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.expired, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.cancelled, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.activationExpired, Record<string, never>>
  | DomainEvent<typeof ChargeEventTypes.created, ChargeCreatedData>
  | DomainEvent<typeof ChargeEventTypes.paid, ChargePaidData>
  | DomainEvent<typeof ChargeEventTypes.failed, ChargeFailedData>
  | DomainEvent<typeof ChargeEventTypes.cancelled, ChargeCancelledData>
  | DomainEvent<typeof ChargeEventTypes.rescheduled, ChargeRescheduledData>
  | DomainEvent<typeof ChargeEventTypes.retryScheduled, ChargeRetryScheduledData>
  | DomainEvent<typeof ChargeEventTypes.expired, ChargeExpiredData>;

/** The recurrence as it stands: creation data with every change applied. */
export interface Recurrence {
  status: RecurrenceStatus;
  journey: Journey;
  data: RecurrenceCreatedData;
  /** Journey 3: the immediate payment expired unpaid, so the recurrence can no longer be authorized. */
  activationExpired: boolean;
  /** The Brasília day it was approved; null before, or when approved before that day was recorded. */
  approvedOn: string | null;
  /** Its charges in the order they were created: the activation first, then one per cycle. */
  charges: Charge[];
}

export type RecurrenceState = { status: 'NONE' } | Recurrence;

/** `at` (ISO instant) and `today` (its Brasília day) are the tenant's now, read by the use case from the Clock. */
export type RecurrenceCommand =
  | { type: 'CreateRecurrence'; data: RecurrenceCreatedData; today: string }
  | { type: 'UpdateRecurrence'; changes: RecurrenceUpdatedData; cancel: boolean }
  | { type: 'ApproveRecurrence'; journey: RecurrenceApprovedData['journey']; at: string; today: string }
  | { type: 'RejectRecurrence' }
  | { type: 'ExpireRecurrence' }
  | { type: 'ExpireActivation' }
  | ChargeCommand;

export type ChargeCommand =
  | { type: 'IssueCharge'; next: NextCycle; charge_id: string; txid: string }
  | { type: 'RecordChargePaid'; charge_id: string; paid_at: string; end_to_end_id: string | null }
  | { type: 'RecordChargeFailed'; charge_id: string; attempt_date: string; reason: { code: string; description: string } | null }
  | { type: 'CancelCharge'; charge_id: string; by: 'merchant' | 'bank' }
  | { type: 'RescheduleCharge'; charge_id: string; due_date: string; txid: string }
  | { type: 'ScheduleRetry'; charge_id: string; date: string };

export const RECURRENCE_STREAM = 'recurrence';
export const recurrenceStreamId = (tenant: Tenant, recurrenceId: string): string =>
  `${RECURRENCE_STREAM}:${tenant.accountId}:${tenant.environment}:${recurrenceId}`;

/** Cancelled, rejected and expired recurrences have ended: their Pix code is void. */
export const hasEnded = (status: RecurrenceStatus): boolean => status === 'CANCELLED' || status === 'REJECTED' || status === 'EXPIRED';

/** The Pix code as shown: void once the recurrence ended or its activation expired unpaid. */
export const pixCopyPasteOf = (r: Recurrence): string | null => (hasEnded(r.status) || r.activationExpired ? null : r.data.pix_copy_paste);

/** Which requested changes actually differ from the recurrence: a repeated PATCH records nothing. */
function changesOf(recurrence: Recurrence, requested: RecurrenceUpdatedData): RecurrenceUpdatedData {
  const current = recurrence.data;
  const changes: RecurrenceUpdatedData = {};
  if (requested.debtor_name !== undefined && requested.debtor_name !== current.debtor.name) changes.debtor_name = requested.debtor_name;
  if (requested.start_date !== undefined && requested.start_date !== current.schedule.start_date) changes.start_date = requested.start_date;
  if (requested.webhook !== undefined && requested.webhook !== current.webhook) changes.webhook = requested.webhook;
  if (requested.business_day_adjust !== undefined && requested.business_day_adjust !== current.business_day_adjust) {
    changes.business_day_adjust = requested.business_day_adjust;
  }
  if (requested.charge_lead_days !== undefined && requested.charge_lead_days !== current.charge_lead_days)
    changes.charge_lead_days = requested.charge_lead_days;
  return changes;
}

function decideUpdate(recurrence: Recurrence, changes: RecurrenceUpdatedData, cancel: boolean) {
  const updates = changesOf(recurrence, changes);
  const nothingElse = Object.keys(updates).length === 0;
  if (hasEnded(recurrence.status)) {
    // Cancelling what is already cancelled is answered like the first time.
    if (recurrence.status === 'CANCELLED' && cancel && nothingElse) return accept<RecurrenceEvent>();
    return reject<RecurrenceEvent>(validation(Messages.recurrences.ended(recurrence.status)));
  }
  const endDate = recurrence.data.schedule.end_date;
  if (updates.start_date !== undefined && endDate !== null && compareDates(updates.start_date, endDate) >= 0) {
    return reject<RecurrenceEvent>(validation(Messages.recurrences.startDateNotBeforeEndDate));
  }
  const events: RecurrenceEvent[] = [];
  if (!nothingElse) events.push({ type: RecurrenceEventTypes.updated, data: updates });
  if (cancel) events.push({ type: RecurrenceEventTypes.cancelled, data: {} }, ...endUnpaidActivation(recurrence));
  return accept(...events);
}

/** The activation charge, while it waits for the payer. */
const pendingActivation = (r: Recurrence): Charge | undefined => r.charges.find((c) => c.type === 'activation' && c.status === 'SCHEDULED');

/** A recurrence that ends before the payer pays its activation takes the activation with it. */
function endUnpaidActivation(r: Recurrence): RecurrenceEvent[] {
  const activation = pendingActivation(r);
  return activation ? [{ type: ChargeEventTypes.cancelled, data: { ...chargeBase(r, activation), by: 'recurrence_ended' } }] : [];
}

/** The webhook a charge's events go to: the activation keeps the one in effect at creation; a cycle charge follows the recurrence. */
const webhookOf = (r: Recurrence, charge: Pick<Charge, 'type'>): string | null =>
  charge.type === 'activation' ? (r.data.activation?.webhook ?? null) : r.data.webhook;

const chargeBase = (r: Recurrence, charge: Charge) => ({
  charge_id: charge.charge_id,
  recurrence_id: r.data.recurrence_id,
  type: charge.type,
  webhook: webhookOf(r, charge),
});

function decideCharge(r: Recurrence, command: ChargeCommand) {
  if (command.type === 'IssueCharge') return decideIssue(r, command);
  const charge = r.charges.find((c) => c.charge_id === command.charge_id);
  if (!charge) return reject<RecurrenceEvent>(notFound(Messages.charges.notFound));
  const base = chargeBase(r, charge);
  const C = Messages.charges;
  switch (command.type) {
    case 'RecordChargePaid':
      // What the bank reports happened, whatever we thought: money moved. Reported twice, recorded once.
      return charge.status === 'PAID'
        ? accept<RecurrenceEvent>()
        : accept<RecurrenceEvent>({
            type: ChargeEventTypes.paid,
            data: { ...base, amount_centavos: charge.amount_centavos, paid_at: command.paid_at, end_to_end_id: command.end_to_end_id },
          });
    case 'RecordChargeFailed':
      // Only the pending attempt can fail; a report about an older attempt changes nothing.
      return charge.status === 'SCHEDULED' && charge.attempt_date === command.attempt_date
        ? accept<RecurrenceEvent>({
            type: ChargeEventTypes.failed,
            data: { ...base, attempt_date: command.attempt_date, reason: command.reason, retries: charge.retries },
          })
        : accept<RecurrenceEvent>();
    case 'CancelCharge':
      if (charge.type === 'activation') return reject<RecurrenceEvent>(validation(C.activationNotCancellable));
      if (charge.status === 'CANCELLED') return accept<RecurrenceEvent>();
      if (charge.status === 'PAID' || charge.status === 'EXPIRED') return reject<RecurrenceEvent>(validation(C.notCancellable(charge.status)));
      return accept<RecurrenceEvent>({ type: ChargeEventTypes.cancelled, data: { ...base, by: command.by } });
    case 'RescheduleCharge':
      if (charge.type === 'activation') return reject<RecurrenceEvent>(validation(C.activationNotReschedulable));
      if (charge.status === 'SCHEDULED' && charge.due_date === command.due_date && charge.txid === command.txid) return accept<RecurrenceEvent>();
      if (charge.status !== 'SCHEDULED' || charge.retries > 0) return reject<RecurrenceEvent>(validation(C.notReschedulable(charge.status)));
      return accept<RecurrenceEvent>({
        type: ChargeEventTypes.rescheduled,
        data: { ...base, previous_due_date: charge.due_date, due_date: command.due_date, txid: command.txid },
      });
    case 'ScheduleRetry':
      // The settlement system judges a retry: by the time this is decided, the bank has accepted it.
      if (charge.type === 'activation') return reject<RecurrenceEvent>(validation(C.activationNotRetryable));
      if (charge.status === 'SCHEDULED' && charge.attempt_date === command.date) return accept<RecurrenceEvent>();
      return accept<RecurrenceEvent>({ type: ChargeEventTypes.retryScheduled, data: { ...base, date: command.date, retries: charge.retries + 1 } });
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** One charge per cycle: only the next cycle, only while APPROVED; issuing it again changes nothing. */
function decideIssue(r: Recurrence, command: Extract<ChargeCommand, { type: 'IssueCharge' }>) {
  const { next } = command;
  const issued = r.charges.find((c) => c.cycle === next.cycle || c.charge_id === command.charge_id);
  if (issued) return accept<RecurrenceEvent>();
  if (r.status !== 'APPROVED') return reject<RecurrenceEvent>(validation(Messages.recurrences.ended(r.status)));
  const last = lastCycleCharge(r);
  if (next.cycle !== (last?.cycle ?? 0) + 1) return reject<RecurrenceEvent>(validation(`cycle ${next.cycle} is not the next cycle`));
  return accept<RecurrenceEvent>({
    type: ChargeEventTypes.created,
    data: {
      charge_id: command.charge_id,
      recurrence_id: r.data.recurrence_id,
      type: 'cycle',
      webhook: r.data.webhook,
      cycle: next.cycle,
      nominal_date: next.nominal_date,
      due_date: next.due_date,
      amount_centavos: r.data.amount_centavos,
      txid: command.txid,
      debtor: { document_number: r.data.debtor.document_number, name: r.data.debtor.name, email: r.data.debtor.email },
    },
  });
}

/** The last cycle charge issued, or null. */
export const lastCycleCharge = (r: Recurrence): Charge | null =>
  r.charges.reduce<Charge | null>((last, c) => (c.cycle !== null && (last === null || c.cycle > (last.cycle ?? 0)) ? c : last), null);

/** The day from which cycles are charged: the approval's (earlier cycles were never authorized). */
export const chargeableFrom = (r: Recurrence): string => r.approvedOn ?? r.data.schedule.start_date;

/** The next cycle after the last one charged, due on or after `notBefore` (nextCycle, for this recurrence). */
export function nextCycleOf(r: Recurrence, notBefore: string = chargeableFrom(r)): NextCycle | null {
  const last = lastCycleCharge(r);
  return nextCycle(r.data, last && { cycle: last.cycle ?? 0, nominal_date: last.nominal_date ?? '' }, notBefore);
}

/** What a recorded event changed, without the record it carries beside the change (which is no part of the state). */
const changeOf = <T extends object>(data: T): T => {
  if (!('recurrence' in data)) return data;
  const { recurrence: _record, ...change } = data as T & { recurrence: unknown };
  return change as T;
};

/** A charge as its creation records it. */
export const chargeOf = (c: ChargeCreatedData): Charge => ({
  charge_id: c.charge_id,
  type: c.type,
  cycle: c.cycle,
  nominal_date: c.nominal_date,
  due_date: c.due_date,
  amount_centavos: c.amount_centavos,
  txid: c.txid,
  status: 'SCHEDULED',
  retries: 0,
  attempt_date: c.due_date,
  paid_at: null,
  reschedules: 0,
});

function evolveCharge(r: Recurrence, chargeId: string, change: (charge: Charge) => Charge): Recurrence {
  return { ...r, charges: r.charges.map((c) => (c.charge_id === chargeId ? change(c) : c)) };
}

/** Only a CREATED recurrence waits for the payer; a journey 3 one only while its activation is payable. */
function awaitingPayer(recurrence: Recurrence) {
  if (recurrence.status !== 'CREATED') return reject<RecurrenceEvent>(validation(Messages.recurrences.notAwaitingPayer(recurrence.status)));
  if (recurrence.activationExpired) return reject<RecurrenceEvent>(validation(Messages.recurrences.activationExpired));
  return undefined;
}

export const recurrence: Decider<RecurrenceCommand, RecurrenceEvent, RecurrenceState> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    if (command.type === 'CreateRecurrence') {
      if (state.status !== 'NONE') return reject(validation(Messages.recurrences.transactionIdTaken));
      const { data } = command;
      const activation: RecurrenceEvent[] = data.activation
        ? [
            {
              type: ChargeEventTypes.created,
              data: {
                charge_id: data.activation.charge_id,
                recurrence_id: data.recurrence_id,
                type: 'activation',
                webhook: data.activation.webhook,
                cycle: null,
                nominal_date: null,
                due_date: command.today,
                amount_centavos: data.activation.amount_centavos,
                txid: data.activation.txid,
                debtor: { document_number: data.debtor.document_number, name: data.debtor.name, email: data.debtor.email },
              },
            },
          ]
        : [];
      return accept({ type: RecurrenceEventTypes.created, data }, ...activation);
    }
    if (state.status === 'NONE') return reject(notFound(Messages.recurrences.notFound));
    switch (command.type) {
      case 'UpdateRecurrence':
        return decideUpdate(state, command.changes, command.cancel);
      case 'ApproveRecurrence': {
        const activation = command.journey === 'JOURNEY_3' ? pendingActivation(state) : undefined;
        const paid: RecurrenceEvent[] = activation
          ? [
              {
                type: ChargeEventTypes.paid,
                data: { ...chargeBase(state, activation), amount_centavos: activation.amount_centavos, paid_at: command.at, end_to_end_id: null },
              },
            ]
          : [];
        return awaitingPayer(state) ?? accept({ type: RecurrenceEventTypes.approved, data: { journey: command.journey, approved_on: command.today } }, ...paid);
      }
      case 'RejectRecurrence':
        return awaitingPayer(state) ?? accept({ type: RecurrenceEventTypes.rejected, data: {} }, ...endUnpaidActivation(state));
      case 'ExpireRecurrence':
        // A deadline that fires after the payer answered changes nothing.
        return state.status === 'CREATED' ? accept({ type: RecurrenceEventTypes.expired, data: {} }, ...endUnpaidActivation(state)) : accept();
      case 'ExpireActivation': {
        if (state.status !== 'CREATED' || state.data.activation === null || state.activationExpired) return accept();
        const activation = pendingActivation(state);
        return accept(
          { type: RecurrenceEventTypes.activationExpired, data: {} },
          ...(activation ? [{ type: ChargeEventTypes.expired, data: chargeBase(state, activation) } as RecurrenceEvent] : []),
        );
      }
      case 'IssueCharge':
      case 'RecordChargePaid':
      case 'RecordChargeFailed':
      case 'CancelCharge':
      case 'RescheduleCharge':
      case 'ScheduleRetry':
        return decideCharge(state, command);
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    if (event.type === RecurrenceEventTypes.created) {
      const data = changeOf(event.data);
      return { status: 'CREATED', journey: 'AWAITING_DEFINITION', data, activationExpired: false, approvedOn: null, charges: [] };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case RecurrenceEventTypes.updated: {
        const { debtor_name, start_date, ...rest } = changeOf(event.data);
        const data = { ...state.data, ...rest };
        if (debtor_name !== undefined) data.debtor = { ...data.debtor, name: debtor_name };
        if (start_date !== undefined) data.schedule = { ...data.schedule, start_date };
        return { ...state, data };
      }
      case RecurrenceEventTypes.approved:
        return { ...state, status: 'APPROVED', journey: event.data.journey, approvedOn: event.data.approved_on ?? null };
      case RecurrenceEventTypes.rejected:
        return { ...state, status: 'REJECTED' };
      case RecurrenceEventTypes.expired:
        return { ...state, status: 'EXPIRED' };
      case RecurrenceEventTypes.cancelled:
        return { ...state, status: 'CANCELLED' };
      case RecurrenceEventTypes.activationExpired:
        return { ...state, activationExpired: true };
      case ChargeEventTypes.created:
        return { ...state, charges: [...state.charges, chargeOf(event.data)] };
      case ChargeEventTypes.paid:
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, status: 'PAID', paid_at: event.data.paid_at }));
      case ChargeEventTypes.failed:
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, status: 'FAILED' }));
      case ChargeEventTypes.cancelled:
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, status: 'CANCELLED' }));
      case ChargeEventTypes.expired:
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, status: 'EXPIRED' }));
      case ChargeEventTypes.rescheduled: {
        const { due_date, txid } = event.data;
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, due_date, attempt_date: due_date, txid, reschedules: c.reschedules + 1 }));
      }
      case ChargeEventTypes.retryScheduled: {
        const { date, retries } = event.data;
        return evolveCharge(state, event.data.charge_id, (c) => ({ ...c, status: 'SCHEDULED', attempt_date: date, retries }));
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};
