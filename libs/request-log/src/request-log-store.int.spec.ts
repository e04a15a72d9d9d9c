import { DataSource } from 'typeorm';
import { RequestLogLine } from '@pixauto/contracts';
import { requestLogLines } from '@pixauto/metrics';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { RequestLog1763800000950, RequestLogConsoleUser1763800000972, RequestLogKeyLastUse1763800000995 } from './request-log.migration';
import { cursorOf, findRequestLines, insertRequestLines, keepRequestLogDays, lastUseOfKeys, RequestLogQuery } from './request-log-store';
import { RequestLogWriter } from './request-log-writer';

let dataSource: DataSource;
const today = new Date('2026-11-26T15:00:00.000Z');

beforeAll(async () => {
  dataSource = await createTestDataSource('request_log', [RequestLog1763800000950, RequestLogConsoleUser1763800000972, RequestLogKeyLastUse1763800000995]);
});
afterAll(() => dropTestDataSource(dataSource));

const line = (n: number, overrides: Partial<RequestLogLine> = {}): RequestLogLine => ({
  account_id: 'acc-1',
  environment: 'sandbox',
  at: new Date(today.getTime() - n * 1000).toISOString(),
  request_id: `req-${String(n).padStart(3, '0')}`,
  method: 'GET',
  path: '/v2/limits?document_number=*********25',
  status: 200,
  duration_ms: 3.5,
  idempotency_key: null,
  key_id: 'key-1',
  request_body: null,
  response_body: null,
  console_user: null,
  ...overrides,
});
const query = (overrides: Partial<RequestLogQuery> = {}): RequestLogQuery => ({
  account_id: 'acc-1',
  environment: 'sandbox',
  since: new Date(today.getTime() - 7 * 86_400_000),
  limit: 50,
  ...overrides,
});
const partitions = async (): Promise<string[]> =>
  (
    await dataSource.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'request_log' ORDER BY 1`,
    )
  ).map((row: { name: string }) => row.name);

it('makes the days ahead, by several processes at once, and drops those past the retention whole', async () => {
  await Promise.all([1, 2, 3].map(() => keepRequestLogDays(dataSource.manager, new Date('2026-11-10T12:00:00.000Z'), 7)));
  expect(await partitions()).toEqual(['request_log_20261110', 'request_log_20261111', 'request_log_20261112']);
  const { dropped } = await keepRequestLogDays(dataSource.manager, today, 14);
  expect(dropped).toEqual(['request_log_20261110', 'request_log_20261111']);
  expect(await partitions()).toEqual(['request_log_20261112', 'request_log_20261126', 'request_log_20261127', 'request_log_20261128']);
});

describe('with the days made', () => {
  beforeAll(async () => {
    await keepRequestLogDays(dataSource.manager, today, 7);
    await insertRequestLines(dataSource.manager, [
      ...Array.from({ length: 5 }, (_, n) => line(n)),
      // Two lines of one millisecond: a page's end between them must lose neither.
      line(10, { request_id: 'req-b', at: '2026-11-26T14:59:50.000Z' }),
      line(10, { request_id: 'req-a', at: '2026-11-26T14:59:50.000Z' }),
      line(20, {
        method: 'POST',
        path: '/v2/payout/pix',
        status: 400,
        request_body: '{"amount":-1}',
        response_body: '{"message":"bad"}',
        idempotency_key: 'k',
      }),
      line(30, { environment: 'production' }),
      line(40, { account_id: 'acc-2' }),
    ]);
  });

  it("reads an account's lines of one environment, newest first, as they were written", async () => {
    const page = await findRequestLines(dataSource.manager, query());
    expect(page.requests.map((l) => l.request_id)).toEqual(['req-000', 'req-001', 'req-002', 'req-003', 'req-004', 'req-b', 'req-a', 'req-020']);
    expect(page.requests[7]).toEqual(
      line(20, {
        method: 'POST',
        path: '/v2/payout/pix',
        status: 400,
        request_body: '{"amount":-1}',
        response_body: '{"message":"bad"}',
        idempotency_key: 'k',
      }),
    );
    expect(page.next_cursor).toBeNull();
  });

  it('pages by cursor without losing or repeating a line, ties included', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await findRequestLines(dataSource.manager, query({ limit: 3, cursor: cursor === null ? undefined : cursorOf(cursor) }));
      seen.push(...page.requests.map((l) => l.request_id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(['req-000', 'req-001', 'req-002', 'req-003', 'req-004', 'req-b', 'req-a', 'req-020']);
  });

  it('filters by request id, failure, method and path prefix, and keeps to the retention', async () => {
    const ids = async (overrides: Partial<RequestLogQuery>) => (await findRequestLines(dataSource.manager, query(overrides))).requests.map((l) => l.request_id);
    expect(await ids({ request_id: 'req-003' })).toEqual(['req-003']);
    expect(await ids({ failed: true })).toEqual(['req-020']);
    expect(await ids({ method: 'POST' })).toEqual(['req-020']);
    expect(await ids({ path: '/v2/payout' })).toEqual(['req-020']);
    expect(await ids({ since: new Date(today.getTime() - 2500) })).toEqual(['req-000', 'req-001', 'req-002']);
    expect(await ids({ environment: 'production' })).toEqual(['req-030']);
    expect(await ids({ exclude_key_ids: ['key-0', 'key-1'] })).toEqual([]);
    expect(await ids({ exclude_key_ids: ['key-0'], request_id: 'req-001' })).toEqual(['req-001']);
  });
});

const dropped = async (): Promise<number> => (await requestLogLines.get()).values.find((value) => value.labels.outcome === 'dropped')?.value ?? 0;

it('writes what was recorded in one statement a moment later, and drops and counts what the database refuses', async () => {
  const droppedBefore = await dropped();
  const writer = new RequestLogWriter(dataSource, { everyMs: 20, maxPending: 2 });
  writer.start();
  writer.record(line(1, { account_id: 'acc-w', request_id: 'w-1' }));
  writer.record(line(2, { account_id: 'acc-w', request_id: 'w-2' }));
  writer.record(line(3, { account_id: 'acc-w', request_id: 'w-3' })); // beyond maxPending: dropped
  await writer.stop();
  const written = await findRequestLines(dataSource.manager, query({ account_id: 'acc-w' }));
  expect(written.requests.map((l) => l.request_id)).toEqual(['w-1', 'w-2']);
  expect(await dropped()).toBe(droppedBefore + 1);

  // A day with no partition: the database refuses the batch, the writer goes on.
  const refused = new RequestLogWriter(dataSource, { everyMs: 20, maxPending: 10 });
  refused.record(line(1, { account_id: 'acc-w', request_id: 'w-old', at: '2020-01-01T00:00:00.000Z' }));
  await refused.stop();
  expect(await dropped()).toBe(droppedBefore + 2);
  refused.record(line(1, { account_id: 'acc-w', request_id: 'w-4' }));
  await refused.flush();
  expect((await findRequestLines(dataSource.manager, query({ account_id: 'acc-w' }))).requests.map((l) => l.request_id)).toEqual(['w-4', 'w-1', 'w-2']);
});

describe("keys' last use", () => {
  const since = new Date(today.getTime() - 7 * 86_400_000);

  beforeAll(async () => {
    await keepRequestLogDays(dataSource.manager, today, 7);
    await insertRequestLines(dataSource.manager, [
      line(300, { account_id: 'acc-u', key_id: 'key-u1', request_id: 'u-1' }),
      line(100, { account_id: 'acc-u', key_id: 'key-u1', request_id: 'u-2', status: 401 }),
      line(200, { account_id: 'acc-u', key_id: 'key-u2', request_id: 'u-3', environment: 'production' }),
      // Another account's line under the same key id never counts for this one.
      line(50, { account_id: 'acc-v', key_id: 'key-u2', request_id: 'v-1' }),
    ]);
  });

  it("answers every key's newest line in one read, refused requests included; a key without one is left out", async () => {
    const lastUse = await lastUseOfKeys(dataSource.manager, 'acc-u', ['key-u1', 'key-u2', 'key-unused'], since);
    expect(Object.fromEntries([...lastUse].map(([keyId, at]) => [keyId, at.toISOString()]))).toEqual({
      'key-u1': new Date(today.getTime() - 100_000).toISOString(),
      'key-u2': new Date(today.getTime() - 200_000).toISOString(),
    });
    expect(await lastUseOfKeys(dataSource.manager, 'acc-u', [], since)).toEqual(new Map());
  });

  it('looks no further back than the retention', async () => {
    const lastUse = await lastUseOfKeys(dataSource.manager, 'acc-u', ['key-u1', 'key-u2'], new Date(today.getTime() - 150_000));
    expect([...lastUse.keys()]).toEqual(['key-u1']);
  });

  it("reads each key's newest line through the key's index, never the account's whole log", async () => {
    const plan: { 'QUERY PLAN': string }[] = await dataSource.transaction(async (tx) => {
      // The tables are tiny here: without this the planner would rightly read them whole, which proves nothing.
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query(
        `EXPLAIN SELECT k.key_id, (SELECT r.at FROM request_log r WHERE r.key_id = k.key_id AND r.account_id = $1 AND r.at >= $3 ORDER BY r.at DESC LIMIT 1) AS at
           FROM unnest($2::text[]) AS k (key_id)`,
        ['acc-u', ['key-u1'], since],
      );
    });
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan using request_log_\d{8}_key_id_at_idx/);
    expect(text).not.toMatch(/account_id_environment_at_idx|Sort/);
  });
});
