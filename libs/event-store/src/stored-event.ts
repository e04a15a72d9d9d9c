import { EventEnvelope, Tenant } from '@pixauto/contracts';
import { isoUtc } from '@pixauto/pix';
import { Decider, DomainEvent, fold } from './decider';

interface EventMetadata {
  eventId: string;
  streamId: string;
  streamType: string;
  version: number;
  tenant: Tenant;
  occurredAt: Date;
}

/** An event with its metadata, as it is being recorded. Distributive, so `switch (event.type)` narrows `event.data`. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent ? EventMetadata & { type: E['type']; data: E['data'] } : never;

/** A recorded event read back from the store, with its global position. */
export type StoredEvent<E extends DomainEvent = DomainEvent> = RecordedEvent<E> & { position: string };

/** The columns of an events row that fromRow reads. */
export const EVENT_COLUMNS = 'position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at';

export interface EventRow {
  position: string;
  event_id: string;
  stream_id: string;
  stream_type: string;
  version: number;
  type: string;
  data: unknown;
  account_id: string;
  environment: Tenant['environment'];
  occurred_at: Date;
}

export const fromRow = <E extends DomainEvent>(row: EventRow): StoredEvent<E> =>
  ({
    position: row.position,
    eventId: row.event_id,
    streamId: row.stream_id,
    streamType: row.stream_type,
    version: row.version,
    type: row.type,
    data: row.data,
    tenant: { accountId: row.account_id, environment: row.environment },
    occurredAt: row.occurred_at,
  }) as StoredEvent<E>;

/** The wire form of a stored event (contracts EventEnvelope): what the outbox publishes. */
export const toEnvelope = (event: RecordedEvent): EventEnvelope => ({
  event_id: event.eventId,
  type: event.type,
  stream_id: event.streamId,
  version: event.version,
  tenant: { account_id: event.tenant.accountId, environment: event.tenant.environment },
  occurred_at: isoUtc(event.occurredAt),
  data: event.data,
});

/** The state a stream's events fold to. */
export const stateOf = <E extends DomainEvent, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, history: readonly StoredEvent<E>[]): S =>
  fold(
    decider,
    history.map((event) => ({ type: event.type, data: event.data }) as E),
  );
