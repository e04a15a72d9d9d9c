import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Tenant } from '@pixauto/contracts';
import { DomainEvent } from './decider';
import { ConcurrencyError, EventStore, PendingAppend } from './event-store';
import { rowsSql } from './sql';
import { createTestDataSource, dropTestDataSource } from './testing/test-database';

// One append for many streams (a scheduler's page of work) on the real PostgreSQL server: each stream at its own
// expected version, one commit for all, or nothing at all when any stream moved on.

type NoteEvent = DomainEvent<'note.written', { text: string }>;

const tenant: Tenant = { accountId: 'acc-append-all', environment: 'production' };
const occurredAt = new Date('2026-11-22T12:00:00.000Z');

let dataSource: DataSource;
let store: EventStore;

beforeAll(async () => {
  dataSource = await createTestDataSource('append_all');
  await dataSource.query('CREATE TABLE notes (stream_id text PRIMARY KEY, last_text text NOT NULL, version int NOT NULL)');
  store = new EventStore(dataSource);
});

afterAll(() => dropTestDataSource(dataSource));

const appendTo = (streamId: string, expectedVersion: number, ...texts: string[]): PendingAppend<NoteEvent> => ({
  request: {
    streamId,
    streamType: 'note',
    expectedVersion,
    events: texts.map((text) => ({ type: 'note.written' as const, data: { text } })),
    tenant,
    occurredAt,
    topic: 'notes',
  },
  project: (recorded) => {
    const last = recorded[recorded.length - 1];
    // Through unnest: the parts of one append write the notes table in one statement (mergeRows).
    return [
      rowsSql(
        `INSERT INTO notes (stream_id, last_text, version) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
         ON CONFLICT (stream_id) DO UPDATE SET last_text = EXCLUDED.last_text, version = EXCLUDED.version`,
        [streamId, last.data.text, last.version],
      ),
    ];
  },
});

const streams = (n: number): string[] => Array.from({ length: n }, () => `note-${randomUUID()}`);
const rows = (query: string, ids: string[]) => dataSource.query(query, [ids]);

describe('EventStore.appendAll', () => {
  it('appends to every stream at once: events, outbox rows in stream order, read models and positions', async () => {
    const [a, b, c] = streams(3);
    await store.append(appendTo(c, 0, 'c1').request, appendTo(c, 0, 'c1').project);

    const stored = await store.appendAll([appendTo(a, 0, 'a1', 'a2'), appendTo(b, 0, 'b1'), appendTo(c, 1, 'c2')]);

    expect(stored.map((events) => events.map((e) => [e.streamId, e.version, e.data.text]))).toEqual([
      [
        [a, 1, 'a1'],
        [a, 2, 'a2'],
      ],
      [[b, 1, 'b1']],
      [[c, 2, 'c2']],
    ]);
    const positions = stored.flat().map((e) => Number(e.position));
    expect(positions.every(Number.isSafeInteger)).toBe(true);
    expect(new Set(positions).size).toBe(4);
    expect(await rows('SELECT stream_id, last_text, version FROM notes WHERE stream_id = ANY($1) ORDER BY last_text', [a, b, c])).toEqual([
      { stream_id: a, last_text: 'a2', version: 2 },
      { stream_id: b, last_text: 'b1', version: 1 },
      { stream_id: c, last_text: 'c2', version: 2 },
    ]);
    const outbox = await rows(`SELECT message_key, payload->>'version' AS version FROM outbox WHERE message_key = ANY($1) ORDER BY id`, [a, b, c]);
    const versionsOf = (stream: string) =>
      outbox.filter((row: { message_key: string }) => row.message_key === stream).map((row: { version: string }) => row.version);
    expect(versionsOf(a)).toEqual(['1', '2']);
    expect(versionsOf(c)).toEqual(['1', '2']);
    expect((await store.readStreams<NoteEvent>([a, b, c])).get(a)?.map((e) => e.data.text)).toEqual(['a1', 'a2']);
  });

  it('appends nothing anywhere when one stream is no longer at the version its writer read', async () => {
    const [fresh, moved] = streams(2);
    await store.append(appendTo(moved, 0, 'm1').request, appendTo(moved, 0, 'm1').project);

    await expect(store.appendAll([appendTo(fresh, 0, 'f1'), appendTo(moved, 0, 'stale')])).rejects.toBeInstanceOf(ConcurrencyError);

    expect(await rows('SELECT stream_id, version FROM events WHERE stream_id = ANY($1)', [fresh, moved])).toEqual([{ stream_id: moved, version: 1 }]);
    expect(await rows('SELECT message_key FROM outbox WHERE message_key = ANY($1)', [fresh, moved])).toEqual([{ message_key: moved }]);
    expect(await rows('SELECT last_text FROM notes WHERE stream_id = ANY($1)', [fresh, moved])).toEqual([{ last_text: 'm1' }]);
  });

  it('refuses two parts for one stream at the same version as a concurrency conflict', async () => {
    const [one] = streams(1);
    await expect(store.appendAll([appendTo(one, 0, 'x'), appendTo(one, 0, 'y')])).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await rows('SELECT version FROM events WHERE stream_id = ANY($1)', [one])).toEqual([]);
  });

  it('publishes each event on the topic its type is routed to, keyed by its stream', async () => {
    const [routed, plain] = streams(2);
    const routedPart = appendTo(routed, 0, 'r1', 'r2');
    const byText = (eventType: string) => (eventType === 'note.written' ? 'notes-written' : 'notes-other');
    await store.appendAll([{ ...routedPart, request: { ...routedPart.request, topic: byText } }, appendTo(plain, 0, 'p1')]);

    expect(await rows(`SELECT message_key, topic FROM outbox WHERE message_key = ANY($1) ORDER BY id`, [routed, plain])).toEqual([
      { message_key: routed, topic: 'notes-written' },
      { message_key: routed, topic: 'notes-written' },
      { message_key: plain, topic: 'notes' },
    ]);
  });

  it('answers empty lists for parts without events and touches nothing', async () => {
    const [quiet] = streams(1);
    expect(await store.appendAll([appendTo(quiet, 0)])).toEqual([[]]);
    expect(await rows('SELECT version FROM events WHERE stream_id = ANY($1)', [quiet])).toEqual([]);
  });
});
