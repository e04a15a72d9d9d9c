import {
  ChargeCreatedData,
  ChargeEventTypes,
  ChargeRecordData,
  ChargeResponse,
  EventEnvelope,
  RecurrenceCreatedData,
  RecurrenceEventTypes,
  RecurrenceRecordData,
  RecurrenceResponse,
  RecurrenceStatus,
} from '@pixauto/contracts';
import { RecordedEvent } from '@pixauto/event-store';
import { chargeOf, recurrence, RecurrenceEvent, RecurrenceState } from './recurrence';
import { chargeResponse, chargeRowOf } from './read-model/charges.projection';
import { recurrenceResponse, recurrenceRowOf } from './read-model/recurrences.queries';

// Every event of a recurrence's stream carries its record (version 2): the recurrence, or the charge, as the
// merchant reads it once the event applied, mapped by the read model's own mapper. Followers take it from there
// instead of folding the stream again (asyncapi.yaml).

const CHARGE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(ChargeEventTypes));
const RECURRENCE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(RecurrenceEventTypes));

export const isChargeEvent = (type: string): boolean => CHARGE_EVENT_TYPES.has(type);
export const isRecurrenceStreamEvent = (type: string): boolean => CHARGE_EVENT_TYPES.has(type) || RECURRENCE_EVENT_TYPES.has(type);

/** When each charge of a stream was created: the recording time of its `charge.created` (what the charges read model keeps). */
export function chargeCreationTimes(events: readonly Pick<RecordedEvent<RecurrenceEvent>, 'type' | 'data' | 'occurredAt'>[]): Map<string, Date> {
  const times = new Map<string, Date>();
  for (const event of events) if (event.type === ChargeEventTypes.created) times.set((event.data as ChargeCreatedData).charge_id, event.occurredAt);
  return times;
}

/** The domain event's data with its record beside the change (evolve reads only the change). */
const carrying = (event: RecurrenceEvent, record: RecurrenceRecordData | ChargeRecordData): RecurrenceEvent =>
  ({ ...event, data: { ...event.data, ...record } }) as unknown as RecurrenceEvent;

/**
 * The events of one append, each with its record added to its data: the state after it, mapped as GET shows it.
 * `before` is the stream's state before them, `created` the creation times of its charges so far, `at` the append's
 * time. Pure: what decide produced stays as it is, and evolve ignores the record.
 */
export function withRecords(before: RecurrenceState, events: readonly RecurrenceEvent[], created: ReadonlyMap<string, Date>, at: Date): RecurrenceEvent[] {
  const times = new Map(created);
  let state = before;
  return events.map((event) => {
    state = recurrence.evolve(state, event);
    if (state.status === 'NONE') return event;
    if (!isChargeEvent(event.type)) return carrying(event, { recurrence: recurrenceResponse(recurrenceRowOf(state)) });
    const chargeId = (event.data as { charge_id: string }).charge_id;
    if (event.type === ChargeEventTypes.created) times.set(chargeId, at);
    const charge = state.charges.find((c) => c.charge_id === chargeId);
    if (!charge) return event; // decide names only charges of the stream: never so
    const record = chargeResponse(chargeRowOf(state.data.recurrence_id, charge, times.get(chargeId) ?? at));
    return carrying(event, { charge: record });
  });
}

/** The event store's `record` for a recurrence's stream: its events with their records. */
export const recordRecurrenceEvents = (
  events: RecurrenceEvent[],
  before: RecurrenceState,
  history: readonly Pick<RecordedEvent<RecurrenceEvent>, 'type' | 'data' | 'occurredAt'>[],
  at: Date,
): RecurrenceEvent[] => withRecords(before, events, chargeCreationTimes(history), at);

/** An event of a recurrence's stream with its record: version 2, or version 1 upcast. */
export type RecordedRecurrenceEnvelope = EventEnvelope<string, ({ recurrence: RecurrenceResponse } | { charge: ChargeResponse }) & Record<string, unknown>>;

export const recordOfEnvelope = (event: EventEnvelope): RecurrenceResponse | ChargeResponse | undefined => {
  const data = event.data as Partial<RecurrenceRecordData & ChargeRecordData>;
  return isChargeEvent(event.type) ? data.charge : data.recurrence;
};

/**
 * The one reader of version 1 (events that carried only their change, still on the topics until they age out):
 * the creations carry every field of their record, which is built from them as the writer builds it; any other
 * version 1 event has no record to give (undefined). A version 2 event comes back as it is.
 */
export function upcastRecurrenceStreamEvent(event: EventEnvelope): RecordedRecurrenceEnvelope | undefined {
  if (recordOfEnvelope(event) !== undefined) return event as RecordedRecurrenceEnvelope;
  const occurredAt = new Date(event.occurred_at);
  if (event.type === RecurrenceEventTypes.created) {
    const [upcast] = withRecords(recurrence.initialState, [{ type: event.type, data: event.data as RecurrenceCreatedData }], new Map(), occurredAt);
    return { ...event, data: upcast.data } as RecordedRecurrenceEnvelope;
  }
  if (event.type === ChargeEventTypes.created) {
    const data = event.data as ChargeCreatedData;
    const record = chargeResponse(chargeRowOf(data.recurrence_id, chargeOf(data), occurredAt));
    return { ...event, data: { ...data, charge: record } } as RecordedRecurrenceEnvelope;
  }
  return undefined;
}

/** What a version 1 recurrence event said of the status; `updated` and `activation_expired` said nothing of it. */
const VERSION_1_STATUS: Partial<Record<string, RecurrenceStatus>> = {
  [RecurrenceEventTypes.created]: 'CREATED',
  [RecurrenceEventTypes.approved]: 'APPROVED',
  [RecurrenceEventTypes.rejected]: 'REJECTED',
  [RecurrenceEventTypes.expired]: 'EXPIRED',
  [RecurrenceEventTypes.cancelled]: 'CANCELLED',
};

/** The recurrence's status once a recurrence event applied: its record's, or what a version 1 event's type said of it. */
export function recurrenceStatusAfter(event: EventEnvelope): RecurrenceStatus | undefined {
  if (isChargeEvent(event.type)) return undefined;
  const record = recordOfEnvelope(event) as RecurrenceResponse | undefined;
  return record ? record.status : VERSION_1_STATUS[event.type];
}
