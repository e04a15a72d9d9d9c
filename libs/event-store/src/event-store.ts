import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { Tenant, WrittenPosition } from '@pixauto/contracts';
import { Refusal } from '@pixauto/errors';
import { eventHeaders } from '@pixauto/telemetry';
import { Decider, DomainEvent } from './decider';
import { noteWritten } from './read-your-writes';
import { mergeRows, SqlStatement, StatementBuilder } from './sql';
import { EVENT_COLUMNS, EventRow, fromRow, RecordedEvent, stateOf, StoredEvent, toEnvelope } from './stored-event';

/** Another writer appended to the stream since it was read. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
  ) {
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
  topic: TopicOf;
}

/** A stream's topic, or where each of its event types goes (a recurrence's charges have a topic of their own). */
export type TopicOf = string | ((eventType: string) => string);

/** One stream's part of an append: its events and the read-model statements they bring. */
export interface PendingAppend<E extends DomainEvent> {
  request: AppendRequest<E>;
  project?: (events: RecordedEvent<E>[]) => SqlStatement[];
}

export interface CommandContext<E extends DomainEvent, S> {
  streamId: string;
  streamType: string;
  tenant: Tenant;
  now: Date;
  topic: TopicOf;
  project?: Projection<E, S>;
  /**
   * The events as they are recorded and published, when they carry more than decide gave them (their record: the
   * aggregate once each applied). Given the state before them, the stream so far and the append's time; pure.
   */
  record?: (events: E[], before: S, history: StoredEvent<E>[], now: Date) => E[];
}

export type CommandOutcome<E extends DomainEvent, S> =
  { ok: true; state: S; events: StoredEvent<E>[]; history: StoredEvent<E>[]; version: number } | { ok: false; refusal: Refusal };

const UNIQUE_VIOLATION = '23505';
const STALE_VERSION = 'ES409'; // raised by event_store_expect_version (EventStoreAppendGuard migration)
const MAX_ATTEMPTS = 5;
/** Random, growing pause before a retry, so that writers that collided do not collide again in lockstep. */
const backoffMs = (attempt: number): number => Math.random() * 5 * 2 ** attempt;

export class EventStore {
  /** The last command queued per stream: commands of one process on one stream run one after another. */
  private readonly streamTails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly onAppended: () => void = () => undefined,
  ) {}

  async readStream<E extends DomainEvent>(streamId: string, db: EntityManager = this.dataSource.manager): Promise<StoredEvent<E>[]> {
    const rows: EventRow[] = await db.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY version`, [streamId]);
    return rows.map((row) => fromRow<E>(row));
  }

  /** Several streams at once (one query for a page of work); a stream with no events is absent from the map. */
  async readStreams<E extends DomainEvent>(streamIds: string[]): Promise<Map<string, StoredEvent<E>[]>> {
    const rows: EventRow[] = await this.dataSource.query(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, version`, [
      streamIds,
    ]);
    const streams = new Map<string, StoredEvent<E>[]>();
    for (const row of rows) {
      const stream = streams.get(row.stream_id) ?? [];
      if (stream.length === 0) streams.set(row.stream_id, stream);
      stream.push(fromRow<E>(row));
    }
    return streams;
  }

  /** The state a stream's events fold to, for a decision that must precede a side effect (a bank call). */
  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    return stateOf(decider, await this.readStream<E>(streamId));
  }

  /**
   * Appends events if the stream is still at expectedVersion (ConcurrencyError otherwise), with one outbox row per
   * event and the read-model statements, all in one SQL statement: one round trip, one atomic commit.
   */
  async append<E extends DomainEvent>(
    request: AppendRequest<E>,
    project: (events: RecordedEvent<E>[]) => SqlStatement[] = () => [],
  ): Promise<StoredEvent<E>[]> {
    const [events] = await this.appendAll([{ request, project }]);
    return events;
  }

  /**
   * Appends to several streams in one SQL statement, each at its expected version: all of them or, when any stream
   * moved on (ConcurrencyError), none. A scheduler's page of work commits once instead of once per stream.
   */
  async appendAll<E extends DomainEvent>(appends: PendingAppend<E>[]): Promise<StoredEvent<E>[][]> {
    const batch = appends
      .filter(({ request }) => request.events.length > 0)
      .map(({ request, project = () => [] }) => {
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
        return { request, recorded, projections: project(recorded) };
      });
    if (batch.length === 0) return appends.map(() => []);
    const statement = appendStatement(batch);
    let positions: { event_id: string; position: string }[];
    try {
      positions = await this.dataSource.query(statement.text, statement.values);
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === STALE_VERSION || (code === UNIQUE_VIOLATION && constraint === 'events_stream_version')) {
        const stale = batch.length === 1 ? batch[0].request : undefined;
        throw new ConcurrencyError(stale?.streamId ?? `one of ${batch.length} streams`, stale?.expectedVersion ?? -1);
      }
      throw error;
    }
    this.onAppended();
    noteWritten(batch.flatMap(({ request, recorded }) => positionsOf(request.topic, recorded)));
    const positionOf = new Map(positions.map((row) => [row.event_id, row.position]));
    const stored = new Map(
      batch.map(({ request, recorded }) => [request, recorded.map((event) => ({ ...event, position: positionOf.get(event.eventId) }) as StoredEvent<E>)]),
    );
    return appends.map(({ request }) => stored.get(request) ?? []);
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
      const state = stateOf(decider, history);
      const decision = decider.decide(command, state);
      // Nothing to append (a bank's notification got there first, or a caller that ignores refusals): an answer may
      // show the stream as it is, so the merchant's next reads must see it as far.
      if (!decision.ok || decision.events.length === 0) noteWritten(positionsOf(context.topic, history));
      if (!decision.ok) return decision;
      const newState = decision.events.reduce(decider.evolve, state);
      try {
        const events = await this.append(
          {
            streamId: context.streamId,
            streamType: context.streamType,
            expectedVersion: history.length,
            events: context.record ? context.record(decision.events, state, history, context.now) : decision.events,
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

const topicOfEvent = (topic: TopicOf, eventType: string): string => (typeof topic === 'string' ? topic : topic(eventType));

const positionsOf = (topic: TopicOf, events: readonly { type: string; streamId: string; version: number }[]): WrittenPosition[] =>
  events.map((e) => ({ topic: topicOfEvent(topic, e.type), type: e.type, stream: e.streamId, version: e.version }));

/** PostgreSQL's limit on the parameters of one statement. */
const MAX_PARAMETERS = 65_535;

/**
 * WITH guard (each stream's expected version, or raise), the events, their outbox rows (in stream and version order,
 * so per-key order holds on Kafka), then each read-model statement: PostgreSQL runs every data-modifying CTE and
 * commits the statement as one, or none of it. Events and outbox rows travel as one JSON parameter: their part of
 * the text is the same whatever the batch's size.
 */
function appendStatement<E extends DomainEvent>(
  batch: { request: AppendRequest<E>; recorded: RecordedEvent<E>[]; projections: SqlStatement[] }[],
): SqlStatement {
  const b = new StatementBuilder();
  const requests = batch.map(({ request }) => request);
  const events = batch.flatMap(({ request, recorded }) => recorded.map((event) => ({ event, topic: topicOfEvent(request.topic, event.type) })));
  // The request's id and trace context go with each event to Kafka (docs/operations.md "Logs and traces").
  const carried = eventHeaders();
  const guard = `guard AS (
      SELECT event_store_expect_version(s.stream, s.expected) FROM unnest(${b.param(requests.map((r) => r.streamId))}::text[], ${b.param(requests.map((r) => r.expectedVersion))}::int[]) AS s (stream, expected))`;
  // The events and their outbox rows as one JSON document: one parse in PostgreSQL, no array-literal escaping here.
  const input = b.param(
    JSON.stringify(
      events.map(({ event: e, topic }, n) => ({
        n,
        event_id: e.eventId,
        stream_id: e.streamId,
        stream_type: e.streamType,
        version: e.version,
        type: e.type,
        data: e.data,
        account_id: e.tenant.accountId,
        environment: e.tenant.environment,
        occurred_at: e.occurredAt.toISOString(),
        topic,
        envelope: toEnvelope(e),
        headers: { ...carried, 'event-id': e.eventId, 'event-type': e.type },
      })),
    ),
  );
  const readModels = mergeRows(batch.flatMap(({ projections }) => projections)).map((projection, index) => `read_model_${index} AS (${b.embed(projection)})`);
  if (b.values.length > MAX_PARAMETERS)
    throw new Error(`an append of ${batch.length} streams needs ${b.values.length} parameters, over PostgreSQL's ${MAX_PARAMETERS}`);
  // count(*) makes PostgreSQL run the guard over every stream before any row goes in.
  const text = `WITH ${guard},
    input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS e (n int, event_id uuid, stream_id text, stream_type text, version int, type text,
        data jsonb, account_id text, environment text, occurred_at timestamptz, topic text, envelope jsonb, headers jsonb)),
    appended AS (
      INSERT INTO events (event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at)
      SELECT e.event_id, e.stream_id, e.stream_type, e.version, e.type, e.data, e.account_id, e.environment, e.occurred_at
        FROM input AS e CROSS JOIN (SELECT count(*) FROM guard) AS checked
      RETURNING position, event_id),
    published AS (
      INSERT INTO outbox (topic, message_key, payload, headers)
      SELECT o.topic, o.stream_id, o.envelope, o.headers FROM input AS o ORDER BY o.n)
    ${readModels.map((readModel) => `, ${readModel}`).join('\n')}
    SELECT event_id::text AS event_id, position::text AS position FROM appended`;
  return { text, values: b.values };
}
