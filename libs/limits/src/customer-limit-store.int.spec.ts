import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CustomerLimitData, Tenant, Topics } from '@pixauto/contracts';
import { ConcurrencyError, EventStore, rebuildProjection, sql } from '@pixauto/event-store';
import { createTestDataSource, dropTestDataSource, waitForSession } from '@pixauto/event-store/testing';
import { CUSTOMER_LIMIT_STREAM, customerLimit, CustomerLimitEvent, customerLimitStreamId, documentDigest } from './customer-limit';
import { customerLimitStreamsKeyed } from './read-model/customer-limits.migration';
import { CustomerLimitsReadModel1763800000100 } from './read-model/customer-limits.migration';
import { customerLimitsRebuild, projectCustomerLimit } from './read-model/customer-limits.projection';

// The customer limit persisted through the real event store (PostgreSQL): append, concurrency, atomicity of
// events, outbox and read model, and rebuilding the read model from the events.

const now = new Date('2025-11-20T12:00:00.000Z');
const topic = Topics.limits.name;

let dataSource: DataSource;
let store: EventStore;

beforeAll(async () => {
  dataSource = await createTestDataSource('event_store', [CustomerLimitsReadModel1763800000100]);
  store = new EventStore(dataSource);
});

afterAll(() => dropTestDataSource(dataSource));

const documentKey = randomBytes(32);
const newTenant = (): Tenant => ({ accountId: `acc_${randomUUID()}`, environment: 'production' });
const limitOf = (amount: number | null, document = '52998224725'): CustomerLimitData => ({
  document_number: document,
  limit_type: 'cashin',
  mechanism: 'amount',
  amount_centavos: amount,
  quantity: null,
  details: null,
});
const set = (data: CustomerLimitData) => ({ type: 'SetCustomerLimit' as const, data });
const contextOf = (tenant: Tenant, document = '52998224725') => ({
  streamId: customerLimitStreamId(tenant, documentDigest(documentKey, document), 'cashin'),
  streamType: CUSTOMER_LIMIT_STREAM,
  tenant,
  now,
  topic,
  project: projectCustomerLimit,
});

const count = async (sql: string, params: unknown[]): Promise<number> => Number((await dataSource.query(sql, params))[0].count);
const eventsIn = (streamId: string) => count('SELECT count(*) FROM events WHERE stream_id = $1', [streamId]);
const outboxRowsOf = (streamId: string) => count('SELECT count(*) FROM outbox WHERE message_key = $1', [streamId]);
const limitRowsOf = (tenant: Tenant) => count('SELECT count(*) FROM customer_limits WHERE account_id = $1', [tenant.accountId]);

describe('EventStore (PostgreSQL)', () => {
  it('reads back the events it appended, with versions, tenant and one outbox envelope per event', async () => {
    const tenant = newTenant();
    const streamId = `test:${randomUUID()}`;
    const events = [
      { type: 'thing.created', data: { n: 1 } },
      { type: 'thing.changed', data: { n: 2 } },
    ];

    const appended = await store.append({ streamId, streamType: 'test', expectedVersion: 0, events, tenant, occurredAt: now, topic });
    const read = await store.readStream(streamId);

    expect(read).toEqual(appended);
    expect(read).toMatchObject([
      { streamId, streamType: 'test', version: 1, type: 'thing.created', data: { n: 1 }, tenant, occurredAt: now },
      { streamId, streamType: 'test', version: 2, type: 'thing.changed', data: { n: 2 }, tenant, occurredAt: now },
    ]);
    const outbox = await dataSource.query('SELECT topic, payload, headers FROM outbox WHERE message_key = $1 ORDER BY id', [streamId]);
    expect(outbox).toEqual(
      read.map((event) => ({
        topic,
        payload: expect.objectContaining({ event_id: event.eventId, stream_id: streamId, version: event.version, type: event.type, data: event.data }),
        headers: { 'event-id': event.eventId, 'event-type': event.type },
      })),
    );
  });

  it('refuses an append at a stale expected version and writes nothing: no event, no outbox row, no projection row', async () => {
    const tenant = newTenant();
    const streamId = customerLimitStreamId(tenant, documentDigest(documentKey, '52998224725'), 'cashin');
    const request = { streamId, streamType: CUSTOMER_LIMIT_STREAM, tenant, occurredAt: now, topic };
    await store.append({ ...request, expectedVersion: 0, events: [{ type: 'customer_limit.created', data: limitOf(100) }] });

    const stale = store.append<CustomerLimitEvent>(
      { ...request, expectedVersion: 0, events: [{ type: 'customer_limit.created', data: limitOf(200) }] },
      (events) => projectCustomerLimit(events, { status: 'configured', limit: limitOf(200) }),
    );

    await expect(stale).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await eventsIn(streamId)).toBe(1);
    expect(await outboxRowsOf(streamId)).toBe(1);
    expect(await limitRowsOf(tenant)).toBe(0);
  });

  it('refuses an append at an expected version the stream has not reached, leaving no gap', async () => {
    const streamId = `test:${randomUUID()}`;

    const ahead = store.append({
      streamId,
      streamType: 'test',
      expectedVersion: 3,
      events: [{ type: 'thing.created', data: {} }],
      tenant: newTenant(),
      occurredAt: now,
      topic,
    });

    await expect(ahead).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await eventsIn(streamId)).toBe(0);
    expect(await outboxRowsOf(streamId)).toBe(0);
  });

  it('runs 20 concurrent handle() calls on one stream to success, with contiguous versions 1..20', async () => {
    const tenant = newTenant();
    const context = contextOf(tenant);
    const amounts = Array.from({ length: 20 }, (_, i) => 1_000 + i);

    const outcomes = await Promise.all(amounts.map((amount) => store.handle(customerLimit, set(limitOf(amount)), context)));

    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    const versions = outcomes.map((outcome) => (outcome.ok ? outcome.version : 0)).sort((a, b) => a - b);
    expect(versions).toEqual(amounts.map((_, i) => i + 1));
    const stream = await store.readStream<CustomerLimitEvent>(context.streamId);
    expect(stream.map((event) => event.version)).toEqual(versions);
    expect(stream.map((event) => event.data.amount_centavos).sort()).toEqual(amounts);
    expect(await outboxRowsOf(context.streamId)).toBe(20);
    const [row] = await dataSource.query('SELECT version, amount_centavos FROM customer_limits WHERE account_id = $1', [tenant.accountId]);
    expect(row).toEqual({ version: 20, amount_centavos: String(stream[19].data.amount_centavos) });
  });

  it('retries handle() from a fresh read when another process commits to the stream between its read and its append', async () => {
    const tenant = newTenant();
    const context = contextOf(tenant);
    const other = dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction();
      await other.query(
        `INSERT INTO events (event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at)
         VALUES ($1, $2, $3, 1, 'customer_limit.created', $4::jsonb, $5, 'production', $6)`,
        [randomUUID(), context.streamId, CUSTOMER_LIMIT_STREAM, JSON.stringify(limitOf(100)), tenant.accountId, now],
      );

      const outcome = store.handle(customerLimit, set(limitOf(200)), context);
      await waitForSession(dataSource, 'Lock'); // handle() is blocked on the uncommitted duplicate key
      await other.commitTransaction();

      expect(await outcome).toMatchObject({ ok: true, version: 2, events: [{ type: 'customer_limit.updated', version: 2 }] });
    } finally {
      await other.release();
    }
    expect((await store.readStream(context.streamId)).map((event) => event.type)).toEqual(['customer_limit.created', 'customer_limit.updated']);
  });

  it('rolls back the events and the outbox rows when a read-model statement fails', async () => {
    const tenant = newTenant();
    const context = contextOf(tenant);
    // customer_limits.mechanism is NOT NULL: this read-model statement fails inside the append's statement.
    const failing = () => [
      sql('INSERT INTO customer_limits (account_id, environment, document_number, limit_type) VALUES ($1, $2, $3, $4)', [
        tenant.accountId,
        'production',
        'x',
        'cashin',
      ]),
    ];

    const outcome = store.handle(customerLimit, set(limitOf(100)), { ...context, project: failing });

    await expect(outcome).rejects.toMatchObject({ code: '23502' });
    expect(await eventsIn(context.streamId)).toBe(0);
    expect(await outboxRowsOf(context.streamId)).toBe(0);
    expect(await limitRowsOf(tenant)).toBe(0);
  });

  it('writes nothing when decide refuses the command', async () => {
    const tenant = newTenant();
    const context = contextOf(tenant);

    const outcome = await store.handle(customerLimit, set(limitOf(0)), context);

    expect(outcome).toEqual({ ok: false, refusal: { kind: 'validation', problems: ['body.amount must be a positive number'] } });
    expect(await eventsIn(context.streamId)).toBe(0);
    expect(await outboxRowsOf(context.streamId)).toBe(0);
    expect(await limitRowsOf(tenant)).toBe(0);
  });

  it('rebuilds the customer_limits read model from the events alone after a TRUNCATE', async () => {
    const tenant = newTenant();
    for (const [document, amount] of [
      ['111', 100],
      ['222', 200],
      ['111', 150],
      ['333', 300],
      ['222', 250],
    ] as const) {
      await store.handle(customerLimit, set(limitOf(amount, document)), contextOf(tenant, document));
    }
    await store.append({
      streamId: `test:${randomUUID()}`,
      streamType: 'test',
      expectedVersion: 0,
      events: [{ type: 'thing.created', data: {} }],
      tenant,
      occurredAt: now,
      topic,
    });
    const snapshot = () => dataSource.query('SELECT * FROM customer_limits WHERE account_id = $1 ORDER BY document_number', [tenant.accountId]);
    const before = await snapshot();
    expect(before.map((row: { document_number: string; version: number }) => [row.document_number, row.version])).toEqual([
      ['111', 2],
      ['222', 2],
      ['333', 1],
    ]);
    const limitEvents = await count('SELECT count(*) FROM events WHERE stream_type = $1', [CUSTOMER_LIMIT_STREAM]);

    await dataSource.query('TRUNCATE customer_limits');
    expect(await limitRowsOf(tenant)).toBe(0);
    const applied = await rebuildProjection(dataSource, customerLimitsRebuild, 2);

    expect(applied).toBe(limitEvents);
    expect(await snapshot()).toEqual(before);
  });
});

describe('streams recorded before their ids were keyed', () => {
  it('take the keyed id, so the next set continues the same stream; the document is nowhere in an id', async () => {
    const tenant = newTenant();
    const old = `${CUSTOMER_LIMIT_STREAM}:${tenant.accountId}:${tenant.environment}:52998224725:cashin`;
    await store.append({
      streamId: old,
      streamType: CUSTOMER_LIMIT_STREAM,
      tenant,
      occurredAt: now,
      topic,
      expectedVersion: 0,
      events: [{ type: 'customer_limit.created', data: limitOf(100) }],
    });
    const runner = dataSource.createQueryRunner();
    try {
      const Keyed = customerLimitStreamsKeyed(documentKey);
      await new Keyed().up(runner);
      await new Keyed().up(runner); // a second run finds nothing left to key
    } finally {
      await runner.release();
    }
    const keyed = contextOf(tenant).streamId;
    expect(keyed).not.toContain('52998224725');
    expect(await count('SELECT count(*) FROM events WHERE stream_id = $1', [old])).toBe(0);
    const outcome = await store.handle(customerLimit, set(limitOf(200)), contextOf(tenant));
    expect(outcome).toMatchObject({ ok: true, events: [{ type: 'customer_limit.updated' }] });
  });
});
