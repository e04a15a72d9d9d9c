import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { Tenant } from '@pixauto/contracts';
import { Refusal } from '@pixauto/errors';
import { Decider, DomainEvent, fold } from './decider';
import { SqlStatement, StatementBuilder } from './sql';
import { EventRow, fromRow, RecordedEvent, StoredEvent, toEnvelope } from './stored-event';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(readonly streamId: string, readonly expectedVersion: number) {
    super(`stream ${streamId} is no longer at version ${expectedVersion}`);
    this.name = 'ConcurrencyError';
  }
}

/**
 * An inline read model: the statements that bring it up to date with the events being appended, given the
 * state they lead to. They run inside the append's own statement, so they commit or fail with the events.
 * Pure (no I/O); each row may be written by at most one statement of one append (PostgreSQL's rule).
 */
export type Projection<E extends DomainEvent, S> = (events: RecordedEvent<E>[], state: S) => SqlStatement[];

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
  | { ok: true; state: S; events: StoredEvent<E>[]; history: StoredEvent<E>[]; version: number }
  | { ok: false; refusal: Refusal };

const UNIQUE_VIOLATION = '23505';
const STALE_VERSION = 'ES409'; // raised by event_store_expect_version (EventStoreAppendGuard migration)
const MAX_ATTEMPTS = 5;
/** Random, growing pause before a retry, so that writers that collided do not collide again in lockstep. */
const backoffMs = (attempt: number): number => Math.random() * 5 * 2 ** attempt;

export class EventStore {
  /** The last command queued per stream: commands of one process on one stream run one after another. */
  private readonly streamTails = new Map<string, Promise<unknown>>();

  constructor(private readonly dataSource: DataSource, private readonly onAppended: () => void = () => undefined) {}

  async readStream<E extends DomainEvent>(streamId: string, db: EntityManager = this.dataSource.manager): Promise<StoredEvent<E>[]> {
    const rows: EventRow[] = await db.query(
      `SELECT position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at
         FROM events WHERE stream_id = $1 ORDER BY version`,
      [streamId],
    );
    return rows.map((row) => fromRow<E>(row));
  }

  /** The state a stream's events fold to, for a decision that must precede a side effect (a bank call). */
  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    const history = await this.readStream<E>(streamId);
    return fold(decider, history.map((event) => ({ type: event.type, data: event.data }) as E));
  }

  /**
   * Appends events if the stream is still at expectedVersion (ConcurrencyError otherwise), with one outbox row per
   * event and the read-model statements, all in one SQL statement: one round trip, one atomic commit.
   */
  async append<E extends DomainEvent>(request: AppendRequest<E>, project: (events: RecordedEvent<E>[]) => SqlStatement[] = () => []): Promise<StoredEvent<E>[]> {
    if (request.events.length === 0) return [];
    const recorded = request.events.map(
      (event, index) =>
        ({
          eventId: randomUUID(),
          streamId: request.streamId,
          streamType: request.streamType,
          version: request.expectedVersion + index + 1,
          type: event.type,
          data: event.data,
          tenant: request.tenant,
          occurredAt: request.occurredAt,
        }) as RecordedEvent<E>,
    );
    const statement = appendStatement(request, recorded, project(recorded));
    let positions: { position: string; version: number }[];
    try {
      positions = await this.dataSource.query(statement.text, statement.values);
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === STALE_VERSION || (code === UNIQUE_VIOLATION && constraint === 'events_stream_version')) {
        throw new ConcurrencyError(request.streamId, request.expectedVersion);
      }
      throw error;
    }
    this.onAppended();
    return recorded.map((event, index) => ({ ...event, position: positions[index].position }) as StoredEvent<E>);
  }

  /**
   * Load, decide, append; retried from a fresh read when another writer got there first. Commands on one stream
   * are queued within the process, so only other processes can make a retry necessary.
   */
  handle<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, command: C, context: CommandContext<E, S>): Promise<CommandOutcome<E, S>> {
    const { streamId } = context;
    const outcome = (this.streamTails.get(streamId) ?? Promise.resolve()).then(() => this.handleNow(decider, command, context));
    const tail = outcome.catch(() => undefined);
    this.streamTails.set(streamId, tail);
    void tail.then(() => this.streamTails.get(streamId) === tail && this.streamTails.delete(streamId));
    return outcome;
  }

  private async handleNow<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, command: C, context: CommandContext<E, S>): Promise<CommandOutcome<E, S>> {
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
          (recorded) => context.project?.(recorded, newState) ?? [],
        );
        return { ok: true, state: newState, events, history, version: history.length + events.length };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
        await sleep(backoffMs(attempt));
      }
    }
  }
}

/**
 * WITH guard (the expected version, or raise), the events, their outbox rows, then each read-model statement:
 * PostgreSQL runs every data-modifying CTE and commits the statement as one, or none of it.
 */
function appendStatement<E extends DomainEvent>(request: AppendRequest<E>, events: RecordedEvent<E>[], projections: SqlStatement[]): SqlStatement {
  const b = new StatementBuilder();
  const stream = b.param(request.streamId);
  const guard = `guard AS (SELECT event_store_expect_version(${stream}, ${b.param(request.expectedVersion)}::int) AS at)`;
  const streamType = b.param(request.streamType);
  const tenant = `${b.param(request.tenant.accountId)}, ${b.param(request.tenant.environment)}`;
  const occurredAt = `${b.param(request.occurredAt)}::timestamptz`;
  const eventRows = events.map((e) => `(${b.param(e.eventId)}::uuid, ${b.param(e.version)}::int, ${b.param(e.type)}, ${b.param(JSON.stringify(e.data))}::jsonb)`);
  const topic = b.param(request.topic);
  const outboxRows = events.map(
    (e) => `(${topic}, ${stream}, ${b.param(JSON.stringify(toEnvelope(e)))}::jsonb, ${b.param(JSON.stringify({ 'event-id': e.eventId, 'event-type': e.type }))}::jsonb)`,
  );
  const readModels = projections.map((projection, index) => `read_model_${index} AS (${b.embed(projection)})`);
  const text = `WITH ${guard},
    appended AS (
      INSERT INTO events (event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at)
      SELECT e.event_id, ${stream}, ${streamType}, e.version, e.type, e.data, ${tenant}, ${occurredAt}
        FROM (VALUES ${eventRows.join(', ')}) AS e (event_id, version, type, data) CROSS JOIN guard
      RETURNING position, version),
    published AS (INSERT INTO outbox (topic, message_key, payload, headers) VALUES ${outboxRows.join(', ')})
    ${readModels.map((readModel) => `, ${readModel}`).join('\n')}
    SELECT position::text AS position, version FROM appended ORDER BY version`;
  return { text, values: b.values };
}
