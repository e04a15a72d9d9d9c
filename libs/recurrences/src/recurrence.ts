import {
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

// A recurrence: the payer's mandate (service-api.md 2.1, 3.1, 4.1, 4.4).

export type RecurrenceEvent =
  | DomainEvent<typeof RecurrenceEventTypes.created, RecurrenceCreatedData>
  | DomainEvent<typeof RecurrenceEventTypes.updated, RecurrenceUpdatedData>
  | DomainEvent<typeof RecurrenceEventTypes.approved, RecurrenceApprovedData>
  | DomainEvent<typeof RecurrenceEventTypes.rejected, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.expired, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.cancelled, Record<string, never>>
  | DomainEvent<typeof RecurrenceEventTypes.activationExpired, Record<string, never>>;

/** The recurrence as it stands: creation data with every change applied. */
export interface Recurrence {
  status: RecurrenceStatus;
  journey: Journey;
  data: RecurrenceCreatedData;
  /** Journey 3: the immediate payment expired unpaid, so the recurrence can no longer be authorized (3.1). */
  activationExpired: boolean;
}

export type RecurrenceState = { status: 'NONE' } | Recurrence;

export type RecurrenceCommand =
  | { type: 'CreateRecurrence'; data: RecurrenceCreatedData }
  | { type: 'UpdateRecurrence'; changes: RecurrenceUpdatedData; cancel: boolean }
  | { type: 'ApproveRecurrence'; journey: RecurrenceApprovedData['journey'] }
  | { type: 'RejectRecurrence' }
  | { type: 'ExpireRecurrence' }
  | { type: 'ExpireActivation' };

export const RECURRENCE_STREAM = 'recurrence';
export const recurrenceStreamId = (tenant: Tenant, recurrenceId: string): string =>
  `${RECURRENCE_STREAM}:${tenant.accountId}:${tenant.environment}:${recurrenceId}`;

/** Cancelled, rejected and expired recurrences have ended: their Pix code is void (3.1). */
export const hasEnded = (status: RecurrenceStatus): boolean => status === 'CANCELLED' || status === 'REJECTED' || status === 'EXPIRED';

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
  if (requested.charge_lead_days !== undefined && requested.charge_lead_days !== current.charge_lead_days) changes.charge_lead_days = requested.charge_lead_days;
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
  if (cancel) events.push({ type: RecurrenceEventTypes.cancelled, data: {} });
  return accept(...events);
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
      return state.status === 'NONE'
        ? accept({ type: RecurrenceEventTypes.created, data: command.data })
        : reject(validation(Messages.recurrences.transactionIdTaken));
    }
    if (state.status === 'NONE') return reject(notFound(Messages.recurrences.notFound));
    switch (command.type) {
      case 'UpdateRecurrence':
        return decideUpdate(state, command.changes, command.cancel);
      case 'ApproveRecurrence':
        return awaitingPayer(state) ?? accept({ type: RecurrenceEventTypes.approved, data: { journey: command.journey } });
      case 'RejectRecurrence':
        return awaitingPayer(state) ?? accept({ type: RecurrenceEventTypes.rejected, data: {} });
      case 'ExpireRecurrence':
        // A deadline that fires after the payer answered changes nothing.
        return state.status === 'CREATED' ? accept({ type: RecurrenceEventTypes.expired, data: {} }) : accept();
      case 'ExpireActivation':
        return state.status === 'CREATED' && state.data.activation !== null && !state.activationExpired
          ? accept({ type: RecurrenceEventTypes.activationExpired, data: {} })
          : accept();
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    if (event.type === RecurrenceEventTypes.created) {
      return { status: 'CREATED', journey: 'AWAITING_DEFINITION', data: event.data, activationExpired: false };
    }
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case RecurrenceEventTypes.updated: {
        const { debtor_name, start_date, ...rest } = event.data;
        const data = { ...state.data, ...rest };
        if (debtor_name !== undefined) data.debtor = { ...data.debtor, name: debtor_name };
        if (start_date !== undefined) data.schedule = { ...data.schedule, start_date };
        return { ...state, data };
      }
      case RecurrenceEventTypes.approved:
        return { ...state, status: 'APPROVED', journey: event.data.journey };
      case RecurrenceEventTypes.rejected:
        return { ...state, status: 'REJECTED' };
      case RecurrenceEventTypes.expired:
        return { ...state, status: 'EXPIRED' };
      case RecurrenceEventTypes.cancelled:
        return { ...state, status: 'CANCELLED' };
      case RecurrenceEventTypes.activationExpired:
        return { ...state, activationExpired: true };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};
