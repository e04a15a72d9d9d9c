import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Tenant } from '@pixauto/contracts';
import { Refusal } from '@pixauto/errors';
import { Decider, DomainEvent, fold } from './decider';
import { EventRow, fromRow, StoredEvent, toEnvelope } from './stored-event';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(readonly streamId: string, readonly expectedVersion: number) {
    super(`stream ${streamId} is no longer at version ${expectedVersion}`);
    this.name = 'ConcurrencyError';
  }
}

/** Read models updated in the same transaction as the events they come from. */
export type Projection<E extends DomainEvent, S> = (tx: EntityManager, events: StoredEvent<E>[], state: S) => Promise<void>;

export interface AppendRequest<E extends DomainEvent> {
  streamId: string;
  streamType: string;
  expectedVersion: number;
  events: E[];
  tenant: Tenant;
  occurredAt: Date;
  /** Kafka topic the outbox publishes these events to, keyed by stream id. */
  topic: string;
}

export interface CommandContext<E extends DomainEvent, S> {
  streamId: string;
  streamType: string;
  tenant: Tenant;
  now: Date;
  topic: string;
  project?: Projection<E, S>;
}

export type CommandOutcome<E extends DomainEvent, S> =
  | { ok: true; state: S; events: StoredEvent<E>[]; version: number }
  | { ok: false; refusal: Refusal };

const UNIQUE_VIOLATION = '23505';
const MAX_ATTEMPTS = 5;

export class EventStore {
  constructor(private readonly dataSource: DataSource, private readonly onAppended: () => void = () => undefined) {}

  async readStream<E extends DomainEvent>(streamId: string, db: EntityManager = this.dataSource.manager): Promise<StoredEvent<E>[]> {
    const rows: EventRow[] = await db.query(
      `SELECT position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at
         FROM events WHERE stream_id = $1 ORDER BY version`,
      [streamId],
    );
    return rows.map((row) => fromRow<E>(row));
  }

  /**
   * Appends events if the stream is still at expectedVersion, and in the same transaction writes one
   * outbox row per event and runs the inline projections. Throws ConcurrencyError otherwise.
   */
  async append<E extends DomainEvent>(
    request: AppendRequest<E>,
    inTransaction: (tx: EntityManager, stored: StoredEvent<E>[]) => Promise<void> = async () => undefined,
  ): Promise<StoredEvent<E>[]> {
    if (request.events.length === 0) return [];
    const stored = await this.dataSource.transaction(async (tx) => {
      const rows = await this.insertEvents(tx, request);
      const events = rows.map((row) => fromRow<E>(row));
      await this.insertOutbox(tx, request.topic, events);
      await inTransaction(tx, events);
      return events;
    });
    this.onAppended();
    return stored;
  }

  /** Load, decide, append; retried from a fresh read when another writer got there first. */
  async handle<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, command: C, context: CommandContext<E, S>): Promise<CommandOutcome<E, S>> {
    for (let attempt = 1; ; attempt++) {
      const history = await this.readStream<E>(context.streamId);
      const state = fold(decider, history.map((event) => ({ type: event.type, data: event.data }) as E));
      const decision = decider.decide(command, state);
      if (!decision.ok) return decision;
      const newState = decision.events.reduce(decider.evolve, state);
      try {
        const events = await this.append(
          {
            streamId: context.streamId,
            streamType: context.streamType,
            expectedVersion: history.length,
            events: decision.events,
            tenant: context.tenant,
            occurredAt: context.now,
            topic: context.topic,
          },
          async (tx, stored) => context.project?.(tx, stored, newState),
        );
        return { ok: true, state: newState, events, version: history.length + events.length };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async insertEvents<E extends DomainEvent>(tx: EntityManager, request: AppendRequest<E>): Promise<EventRow[]> {
    const { streamId, streamType, tenant, occurredAt, expectedVersion } = request;
    const params: unknown[] = [streamId, streamType, tenant.accountId, tenant.environment, occurredAt];
    const values = request.events.map((event, index) => {
      params.push(randomUUID(), expectedVersion + index + 1, event.type, JSON.stringify(event.data));
      const p = params.length;
      return `($${p - 3}::uuid, $1, $2, $${p - 2}::int, $${p - 1}, $${p}::jsonb, $3, $4, $5)`;
    });
    try {
      return await tx.query(
        `INSERT INTO events (event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at)
         VALUES ${values.join(', ')}
         RETURNING position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at`,
        params,
      );
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === UNIQUE_VIOLATION && constraint === 'events_stream_version') throw new ConcurrencyError(streamId, expectedVersion);
      throw error;
    }
  }

  private async insertOutbox(tx: EntityManager, topic: string, events: StoredEvent[]): Promise<void> {
    const params: unknown[] = [topic];
    const values = events.map((event) => {
      params.push(event.streamId, JSON.stringify(toEnvelope(event)), JSON.stringify({ 'event-id': event.eventId, 'event-type': event.type }));
      const p = params.length;
      return `($1, $${p - 2}, $${p - 1}::jsonb, $${p}::jsonb)`;
    });
    await tx.query(`INSERT INTO outbox (topic, message_key, payload, headers) VALUES ${values.join(', ')}`, params);
  }
}
