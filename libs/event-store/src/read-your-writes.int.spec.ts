import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventEnvelope, Tenant, WrittenPosition } from '@pixauto/contracts';
import { validation } from '@pixauto/errors';
import { accept, Decider, reject } from './decider';
import { EventStore } from './event-store';
import { collectingWrites, FollowerPositions, latestWrites } from './read-your-writes';
import { createTestDataSource, dropTestDataSource } from './testing/test-database';

// What a merchant's read waits for (docs/decisions/read-your-writes.md), on a real PostgreSQL: the events a request
// appended, and how far a follower has applied each stream.

let dataSource: DataSource;
let positions: FollowerPositions;
beforeAll(async () => {
  dataSource = await createTestDataSource('read_your_writes');
  positions = new FollowerPositions(dataSource);
});
afterAll(async () => {
  await dropTestDataSource(dataSource);
});

const tenant: Tenant = { accountId: randomUUID(), environment: 'sandbox' };
const TOPIC = 'pixauto.test.events.v1';
const envelope = (streamId: string, version: number): EventEnvelope => ({
  event_id: randomUUID(),
  type: 'thing.happened',
  stream_id: streamId,
  version,
  tenant: { account_id: tenant.accountId, environment: tenant.environment },
  occurred_at: '2026-11-25T12:00:00.000Z',
  data: {},
});

describe('the events a request appended', () => {
  it('are noted inside collectingWrites only, by topic, type, stream and version; latestWrites keeps the last of each', async () => {
    const store = new EventStore(dataSource);
    const stream = `thing:${randomUUID()}`;
    const append = (expectedVersion: number, types: string[]) =>
      store.append({
        streamId: stream,
        streamType: 'thing',
        expectedVersion,
        events: types.map((type) => ({ type, data: {} })),
        tenant,
        occurredAt: new Date('2026-11-25T12:00:00.000Z'),
        topic: (type) => (type.startsWith('charge.') ? 'charges' : 'things'),
      });
    await append(0, ['thing.created']); // outside a request: nobody collects
    const written: WrittenPosition[] = [];
    await collectingWrites(written, async () => {
      await append(1, ['thing.changed', 'charge.made']);
      await append(3, ['thing.changed']);
    });
    expect(written).toEqual([
      { topic: 'things', type: 'thing.changed', stream, version: 2 },
      { topic: 'charges', type: 'charge.made', stream, version: 3 },
      { topic: 'things', type: 'thing.changed', stream, version: 4 },
    ]);
    expect(latestWrites(written)).toEqual([
      { topic: 'things', type: 'thing.changed', stream, version: 4 },
      { topic: 'charges', type: 'charge.made', stream, version: 3 },
    ]);
  });
  it('notes the stream as it is when a command has nothing to append or is refused: the answer may show what another writer appended', async () => {
    type Touch = { type: 'Touch' } | { type: 'Refuse' };
    type Touched = { type: 'thing.touched'; data: Record<string, never> };
    const touch: Decider<Touch, Touched, number> = {
      initialState: 0,
      decide: (command, touched) =>
        command.type === 'Refuse' ? reject(validation('no')) : touched === 0 ? accept({ type: 'thing.touched', data: {} }) : accept(),
      evolve: (touched) => touched + 1,
    };
    const store = new EventStore(dataSource);
    const stream = `touch:${randomUUID()}`;
    const context = { streamId: stream, streamType: 'touch', tenant, now: new Date('2026-11-25T12:00:00.000Z'), topic: 'touches' };
    await store.handle(touch, { type: 'Touch' }, context); // another writer, outside this request
    const written: WrittenPosition[] = [];
    await collectingWrites(written, async () => {
      expect(await store.handle(touch, { type: 'Touch' }, context)).toMatchObject({ ok: true, events: [] });
      expect(await store.handle(touch, { type: 'Refuse' }, context)).toMatchObject({ ok: false });
    });
    expect(latestWrites(written)).toEqual([{ topic: 'touches', type: 'thing.touched', stream, version: 1 }]);
  });
});

describe('FollowerPositions', () => {
  it('records the highest version applied per group, topic and stream, a batch with repeats in one statement, never going back', async () => {
    const a = `a:${randomUUID()}`;
    const b = `b:${randomUUID()}`;
    await positions.record('group-1', TOPIC, [envelope(a, 1), envelope(a, 3), envelope(a, 2), envelope(b, 1)]);
    await positions.record('group-1', TOPIC, [envelope(a, 2)]); // a redelivery
    const rows = await dataSource.query('SELECT consumer_group, stream_id, version FROM follower_positions WHERE stream_id = ANY($1) ORDER BY stream_id', [
      [a, b],
    ]);
    expect(rows).toEqual([
      { consumer_group: 'group-1', stream_id: a, version: 3 },
      { consumer_group: 'group-1', stream_id: b, version: 1 },
    ]);
    expect(await positions.awaitApplied([{ group: 'group-1', topic: TOPIC, stream: a, version: 3 }], 0)).toBe(true);
    // Another group, another topic: not applied there.
    expect(await positions.awaitApplied([{ group: 'group-2', topic: TOPIC, stream: a, version: 1 }], 0)).toBe(false);
    expect(await positions.awaitApplied([{ group: 'group-1', topic: 'other', stream: a, version: 1 }], 0)).toBe(false);
  });

  it('waits for a position not applied yet, and gives up at its bound', async () => {
    const stream = `c:${randomUUID()}`;
    await positions.record('group-1', TOPIC, [envelope(stream, 1)]);
    const wanted = [
      { group: 'group-1', topic: TOPIC, stream, version: 1 },
      { group: 'group-1', topic: TOPIC, stream, version: 2 },
    ];
    let started = performance.now();
    expect(await positions.awaitApplied(wanted, 300)).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);

    started = performance.now();
    const waiting = positions.awaitApplied(wanted, 5000);
    setTimeout(() => void positions.record('group-1', TOPIC, [envelope(stream, 2)]), 200);
    expect(await waiting).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
