import { connect, Socket } from 'node:net';
import { parse } from 'csv-parse/sync';
import { Client } from 'pg';
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { freshCpf, Merchant, newMerchant } from './support/fixtures';
import { RunningSystem, startSystem } from './support/running-system';

// The payout lookups of payout-query-service (docs/decisions/payout-lookups.md), through the gateway: its read model
// follows the payout events, yet a merchant's lookup right after its own write sees it (docs/decisions/read-your-writes.md),
// so every test reads once after its writes. Only what the bank does by itself (a refusal) is waited for.

let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;

/** An export whose reader takes nothing this long is ended (PAYOUT_EXPORT_STALL_MS): long enough for the test's checks while exports stall, on a busy machine too. */
const EXPORT_STALL_MS = 15_000;

beforeAll(async () => {
  // Two exports per account here (one by default), so that the per-account cap and the pool's are both reached; the
  // pool named, so that it is 3 on two replicas too (the gateway sends every CSV to one of them).
  system = await startSystem({
    appEnv: {
      'payout-query-service': { PAYOUT_EXPORT_STALL_MS: String(EXPORT_STALL_MS), PAYOUT_EXPORTS_PER_ACCOUNT: '2', PAYOUT_EXPORT_POOL_SIZE: '3' },
    },
  });
  [merchant, other] = [await newMerchant(system), await newMerchant(system)];
});
afterAll(async () => {
  await system?.stop();
});

const sandbox = (path: string, key = merchant.sandbox) => call(system.profile.sandbox, 'GET', path, { key });
const production = (path: string, key = merchant.production) => call(system.profile.gateway, 'GET', path, { key });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let sequence = 0;
const txid = () => `lookup-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const payout = (extra: object = {}) => ({
  transaction_id: txid(),
  amount: 42.1,
  name: 'Maria Silva',
  document_number: freshCpf(),
  pix_key: 'maria@example.com',
  ...extra,
});

async function create(body: object, key = merchant.sandbox, port = system.profile.sandbox) {
  const answer = await call(port, 'POST', '/v2/payout/pix', { key, json: body });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** The sandbox's bank completes a payout now, before it would by itself (a second and a half after it was sent). */
async function settle(id: number, key = merchant.sandbox) {
  const moved = await call(system.profile.sandbox, 'POST', `/v2/sandbox/payouts/${id}/status`, { key, json: { status: 1 } });
  if (moved.status === 200) return expect(moved.body.status).toBe(1);
  // On a busy machine the bank may have paid it by itself first: completed all the same, as the lookup then shows.
  expect(moved).toMatchObject({ status: 400, body: { provider_code: 'PagamentoOperacaoInvalida' } });
  await eventually(
    () => sandbox(`/v2/withdrawals?id=${id}`, key),
    (answer) => answer.body?.status === 1,
    BANK,
  );
}

/** How long the bank may take to refuse a payout by itself (the sender hands it over every 250 ms). */
const BANK = { timeoutMs: 10_000, intervalMs: 100 };
/** How long a new read model may take to read the payouts topic from its start. */
const REBUILD = { timeoutMs: 30_000, intervalMs: 200 };

/** `YYYY-MM-DD HH:MM:SS` in UTC, `seconds` from now. */
const utc = (seconds = 0) => new Date(Date.now() + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
const periodOf = (from = -120, to = 120) => `start=${encodeURIComponent(utc(from))}&end=${encodeURIComponent(utc(to))}`;

async function csvOf(query: string, key = merchant.sandbox): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/withdrawals/period/csv?${query}`, { headers: { authorization: key } });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

describe('GET /v2/withdrawals', () => {
  it('finds a payout by id and by transaction_id right after its 201, and as the bank settled it: the record with bank_name', async () => {
    const created = await create(payout({ webhook: 'https://shop.example.com/payouts' }));
    expect(await sandbox(`/v2/withdrawals?id=${created.id}`)).toMatchObject({ status: 200, body: { id: created.id, transaction_id: created.transaction_id } });
    await settle(created.id);
    const byId = await sandbox(`/v2/withdrawals?id=${created.id}`);
    expect(byId).toEqual({
      status: 200,
      body: {
        id: created.id,
        transaction_id: created.transaction_id,
        name: 'MARIA SILVA',
        document_number: created.document_number,
        document_type: 'CPF',
        currency: 'BRL',
        amount: 42.1,
        status: 1,
        bank: {
          type: 'PIX',
          bank_name: expect.any(String),
          ispb: expect.stringMatching(/^\d{8}$/),
          account_agency: expect.any(String),
          account_number: expect.any(String),
        },
        webhook: 'https://shop.example.com/payouts',
        created_at: created.created_at,
        paid_at: expect.stringMatching(ISO_UTC),
        e2e: expect.stringMatching(/^E\d{8}/),
        psp_id: expect.any(String),
      },
    });
    expect(await sandbox(`/v2/withdrawals?transaction_id=${created.transaction_id}`)).toEqual(byId);
  });

  it('answers 404 for an unknown id, another account and the other environment', async () => {
    const created = await create(payout());
    expect((await sandbox(`/v2/withdrawals?id=${created.id}`)).status).toBe(200);
    const notFound = { status: 404, body: { message: 'Payout not found' } };
    expect(await sandbox('/v2/withdrawals?id=999999999')).toEqual(notFound);
    expect(await sandbox(`/v2/withdrawals?id=${created.id}`, other.sandbox)).toEqual(notFound);
    expect(await sandbox(`/v2/withdrawals?transaction_id=${created.transaction_id}`, other.sandbox)).toEqual(notFound);
    expect(await production(`/v2/withdrawals?id=${created.id}`)).toEqual(notFound);
    expect(await production(`/v2/withdrawals?transaction_id=${created.transaction_id}`)).toEqual(notFound);
  });

  it('needs exactly one of id and transaction_id, and an integer id', async () => {
    expect(await sandbox('/v2/withdrawals')).toEqual(invalid('one of id, transaction_id is required'));
    expect(await sandbox('/v2/withdrawals?id=1&transaction_id=x')).toEqual(invalid('please provide only one of id, transaction_id'));
    expect(await sandbox('/v2/withdrawals?id=abc')).toEqual(invalid('query.id must be a positive integer'));
    expect(await sandbox('/v2/withdrawals?id=0')).toEqual(invalid('query.id must be a positive integer'));
  });
});

describe('GET /v2/withdrawals/period', () => {
  let mine: Merchant;
  let made: { id: number; transaction_id: string }[];

  beforeAll(async () => {
    mine = await newMerchant(system);
    made = [];
    for (let i = 0; i < 3; i++) made.push(await create(payout(), mine.sandbox));
    const rejected = await create(payout({ pix_key: 'naoexiste@example.com' }), mine.sandbox); // the bank rejects it: 3
    made.push(rejected);
    for (const paid of made.slice(0, 3)) await settle(paid.id, mine.sandbox);
    await eventually(
      () => sandbox(`/v2/withdrawals/period?${periodOf()}&status=3`, mine.sandbox),
      (a) => a.body?.count_data === 1,
      BANK,
    );
  });

  it('pages a period oldest first: count_data, page, size (default 10), count_pages, data without bank_name', async () => {
    const all = await sandbox(`/v2/withdrawals/period?${periodOf()}`, mine.sandbox);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ count_data: 4, page: 1, size: 10, count_pages: 1, data: expect.any(Array) });
    expect(all.body.data.map((p: { id: number }) => p.id)).toEqual(made.map((p) => p.id));
    const first = all.body.data[0];
    expect(Object.keys(first.bank).sort()).toEqual(['account_agency', 'account_number', 'ispb', 'type']);
    // Each listed payout is its by-id answer, key for key, without the bank's name and refund_id (the paid ones and the rejected one).
    for (const listed of all.body.data) {
      const { body: byId } = await sandbox(`/v2/withdrawals?id=${listed.id}`, mine.sandbox);
      delete byId.bank.bank_name;
      delete byId.refund_id;
      expect(JSON.stringify(listed)).toBe(JSON.stringify(byId));
    }
    const raw = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/withdrawals/period?${periodOf()}`, { headers: { authorization: mine.sandbox } });
    expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(await raw.text())).toEqual(all.body);
    expect(first).toEqual(
      expect.objectContaining({
        currency: 'BRL',
        status: 1,
        webhook: null,
        e2e: expect.any(String),
        psp_id: expect.any(String),
        paid_at: expect.stringMatching(ISO_UTC),
      }),
    );

    const second = await sandbox(`/v2/withdrawals/period?${periodOf()}&page=2&size=3`, mine.sandbox);
    expect(second.body).toEqual({ count_data: 4, page: 2, size: 3, count_pages: 2, data: [expect.objectContaining({ id: made[3].id, status: 3 })] });
    const beyond = await sandbox(`/v2/withdrawals/period?${periodOf()}&page=5&size=3`, mine.sandbox);
    expect(beyond.body).toEqual({ count_data: 4, page: 5, size: 3, count_pages: 2, data: [] });
  });

  it('filters by status and by the period (start included, end second included)', async () => {
    const rejected = await sandbox(`/v2/withdrawals/period?${periodOf()}&status=3`, mine.sandbox);
    expect(rejected.body).toEqual(expect.objectContaining({ count_data: 1, data: [expect.objectContaining({ id: made[3].id })] }));
    expect((await sandbox(`/v2/withdrawals/period?${periodOf()}&status=0`, mine.sandbox)).body.count_data).toBe(0);
    expect((await sandbox(`/v2/withdrawals/period?${periodOf(-7200, -3600)}`, mine.sandbox)).body).toEqual({
      count_data: 0,
      page: 1,
      size: 10,
      count_pages: 0,
      data: [],
    });
  });

  it('shows a tenant its own payouts only', async () => {
    expect((await sandbox(`/v2/withdrawals/period?${periodOf()}`, other.sandbox)).body.data.map((p: { id: number }) => p.id)).not.toContain(made[0].id);
    expect((await production(`/v2/withdrawals/period?${periodOf()}`, mine.production)).body.count_data).toBe(0);
  });

  it.each([
    ['size over 100', `${periodOf()}&size=101`, 'size must be less than or equal to 100'],
    ['start equal to end', `start=2026-11-01%2010:00:00&end=2026-11-01%2010:00:00`, 'start date must be less than end date'],
    ['start after end', `start=2026-11-02%2000:00:00&end=2026-11-01%2000:00:00`, 'start date must be less than end date'],
    ['no start', `end=2026-11-01%2000:00:00`, 'query.start is a required field'],
    ['no dates', ``, 'query.start is a required field. query.end is a required field'],
    ['an ISO date', `start=2026-11-01T00:00:00Z&end=2026-11-02%2000:00:00`, 'query.start must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)'],
    ['a day that does not exist', `start=2026-02-30%2000:00:00&end=2026-03-02%2000:00:00`, 'query.start must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)'],
    ['a date without time', `start=2026-11-01&end=2026-11-02%2000:00:00`, 'query.start must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)'],
    ['page 0', `${periodOf()}&page=0`, 'query.page must be a positive integer'],
    ['size 0', `${periodOf()}&size=0`, 'query.size must be a positive integer'],
    ['status 5', `${periodOf()}&status=5`, 'query.status must be one of the following values: 0, 1, 2, 3, 4'],
    ['status text', `${periodOf()}&status=paid`, 'query.status must be one of the following values: 0, 1, 2, 3, 4'],
  ])('refuses %s', async (_case, query, message) => {
    expect(await sandbox(`/v2/withdrawals/period?${query}`)).toEqual(invalid(message));
  });
});

describe('GET /v2/withdrawals/customer', () => {
  it('gives a customer full history and total, items without webhook, e2e and psp_id', async () => {
    const documentNumber = freshCpf();
    const first = await create(payout({ document_number: documentNumber, webhook: 'https://shop.example.com/payouts' }));
    const second = await create(payout({ document_number: documentNumber }));
    await settle(first.id);
    await settle(second.id);
    const answer = await sandbox(`/v2/withdrawals/customer?document_number=${documentNumber}`);
    expect(answer).toEqual({ status: 200, body: { data: [expect.objectContaining({ id: first.id }), expect.objectContaining({ id: second.id })], total: 2 } });
    for (const item of answer.body.data) {
      expect(item).not.toHaveProperty('webhook');
      expect(item).not.toHaveProperty('e2e');
      expect(item).not.toHaveProperty('psp_id');
      expect(item).toEqual(expect.objectContaining({ document_number: documentNumber, paid_at: expect.stringMatching(ISO_UTC) }));
    }
    expect(await sandbox(`/v2/withdrawals/customer?document_number=${documentNumber}`, other.sandbox)).toEqual({
      status: 404,
      body: { message: 'No withdrawals found for this customer' },
    });
    expect(await production(`/v2/withdrawals/customer?document_number=${documentNumber}`)).toEqual({
      status: 404,
      body: { message: 'No withdrawals found for this customer' },
    });
  });

  it('answers 404 for a customer without payouts, and refuses an invalid document', async () => {
    expect(await sandbox(`/v2/withdrawals/customer?document_number=${freshCpf()}`)).toEqual({
      status: 404,
      body: { message: 'No withdrawals found for this customer' },
    });
    expect(await sandbox('/v2/withdrawals/customer?document_number=52998224724')).toEqual(invalid('document_number is invalid'));
    expect(await sandbox('/v2/withdrawals/customer?document_number=529.982.247-25')).toEqual(invalid('document_number is invalid'));
    expect(await sandbox('/v2/withdrawals/customer')).toEqual(invalid('query.document_number is a required field'));
  });
});

describe('GET /v2/withdrawals/period/csv', () => {
  it('exports the period as text/csv: the header, the 19 columns in order, every status, names that survive a CSV parser', async () => {
    const mine = await newMerchant(system);
    const tricky = await create(payout({ name: 'Silva, "Zé" & Filhos' }), mine.sandbox);
    const rejected = await create(payout({ pix_key: 'naoexiste@example.com' }), mine.sandbox);
    await settle(tricky.id, mine.sandbox);
    const settled = await sandbox(`/v2/withdrawals?id=${tricky.id}`, mine.sandbox);
    expect(settled.body.status).toBe(1);
    await eventually(
      () => sandbox(`/v2/withdrawals/period?${periodOf()}&status=3`, mine.sandbox),
      (a) => a.body?.count_data === 1,
      BANK,
    );

    const csv = await csvOf(periodOf(), mine.sandbox);
    expect(csv.status).toBe(200);
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = csv.text.trimEnd().split('\n');
    expect(header).toBe(
      'id,transaction_id,name,document_number,document_type,currency,amount,status,bank_type,bank_name,bank_code,account_agency,account_number,webhook,created_at,paid_at,e2e,psp_id,provider',
    );
    expect(rows).toHaveLength(2);
    const records: Record<string, string>[] = parse(csv.text, { columns: true });
    expect(records.map((r) => r.id)).toEqual([String(tricky.id), String(rejected.id)]);
    const [paid, refused] = records;
    expect(paid).toEqual({
      id: String(tricky.id),
      transaction_id: tricky.transaction_id,
      name: settled.body.name, // the bank's name for the beneficiary, comma and quotes intact
      document_number: tricky.document_number,
      document_type: 'CPF',
      currency: 'BRL',
      amount: '42.10',
      status: '1',
      bank_type: 'PIX',
      bank_name: settled.body.bank.bank_name,
      bank_code: expect.any(String),
      account_agency: settled.body.bank.account_agency,
      account_number: settled.body.bank.account_number,
      webhook: '',
      created_at: tricky.created_at,
      paid_at: settled.body.paid_at,
      e2e: settled.body.e2e,
      psp_id: settled.body.psp_id,
      provider: 'PROVIDER_A',
    });
    expect(paid.name).toContain(',');
    expect(paid.name).toContain('"');
    expect(refused).toEqual(expect.objectContaining({ status: '3', paid_at: '', e2e: '' }));
  });

  it('neutralizes a name or transaction_id a spreadsheet would run as a formula: a single quote before it, inside the quoted cell', async () => {
    const mine = await newMerchant(system);
    const starts = ['=', '+', '-', '@', '\t', '\r'];
    const created = [];
    for (const [n, start] of starts.entries()) {
      created.push(await create(payout({ transaction_id: `${start}${txid()}`, name: `${start}HYPERLINK("http://evil.example","Maria ${n}")` }), mine.sandbox));
    }
    // A lookup sees the merchant's own writes (the CSV does not wait for them): once it answers, the CSV has them too.
    expect((await sandbox(`/v2/withdrawals?id=${created[created.length - 1].id}`, mine.sandbox)).status).toBe(200);
    const csv = await csvOf(periodOf(), mine.sandbox);
    expect(csv.status).toBe(200);
    const records: Record<string, string>[] = parse(csv.text, { columns: true });
    expect(records.map((r) => r.id)).toEqual(created.map((c) => String(c.id)));
    for (const [n, record] of records.entries()) {
      expect(record.transaction_id).toBe(`'${created[n].transaction_id}`);
      // The bank may have renamed the beneficiary by now (in capitals): the name still starts with the quote, then the character.
      expect(record.name.slice(0, 2)).toBe(`'${starts[n]}`);
      expect(record.name.toUpperCase()).toMatch(new RegExp(`^'[\\s\\S]HYPERLINK\\("HTTP://EVIL.EXAMPLE","MARIA ${n}"\\)$`));
      expect(record.amount).toBe('42.10'); // numbers untouched
      expect(record.id).toMatch(/^\d+$/);
    }
    // The JSON lookups answer the values as they were sent.
    expect((await sandbox(`/v2/withdrawals?id=${created[0].id}`, mine.sandbox)).body.transaction_id).toBe(created[0].transaction_id);
  });

  it('exports nothing of another tenant, and refuses a bad period in the JSON error shape', async () => {
    const created = await create(payout());
    expect((await sandbox(`/v2/withdrawals?id=${created.id}`)).status).toBe(200);
    const others = await csvOf(periodOf(), other.sandbox);
    expect(others.text).not.toContain(created.transaction_id);
    const bad = await csvOf('start=2026-11-02%2000:00:00&end=2026-11-01%2000:00:00');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ type: 'ValidationError', message: 'start date must be less than end date' });
    const malformed = await csvOf('start=yesterday&end=2026-11-01%2000:00:00');
    expect(JSON.parse(malformed.text)).toEqual({ type: 'ValidationError', message: 'query.start must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)' });
  });
});

describe('CSV exports beside the lookups', () => {
  const database = () =>
    new Client({
      connectionString: `${(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres').replace(/\/[^/]*$/, '')}/${system.profile.databasePrefix}_payout_query`,
    });

  /** `rows` wide payouts of the merchant's sandbox, created in the last minute, written straight into the read model: ~2 KB a row. */
  async function seed(db: Client, accountId: string, rows: number, firstId: number): Promise<void> {
    await db.query(
      `INSERT INTO payout_lookups (account_id, environment, id, transaction_id, name, document_number, document_type, amount_centavos, status,
                                   pix_key, webhook, provider, created_at, version)
       SELECT $1, 'sandbox', $2::bigint + n, 'seed-' || n, repeat('N', 100), '52998224725', 'CPF', 4210, 0,
              'maria@example.com', 'https://shop.example.com/' || repeat('w', 1900), 'PROVIDER_A', now() - interval '30 seconds' + n * interval '1 microsecond', 1
         FROM generate_series(1, $3::int) AS n`,
      [accountId, firstId, rows],
    );
  }

  /** A reader that asks for the CSV and never reads a byte of it (a loopback socket, paused). */
  function stalledExport(key: string): Socket {
    const socket = connect(system.profile.sandbox, '127.0.0.1');
    socket.pause();
    socket.on('error', () => undefined); // ended by the deadline: a reset is expected
    socket.write(`GET /v2/withdrawals/period/csv?${periodOf()} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${key}\r\n\r\n`);
    return socket;
  }

  const copiesRunning = async (db: Client): Promise<number> =>
    Number(
      (await db.query(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY (%' AND pid <> pg_backend_pid()`)).rows[0]
        .count,
    );

  it('refuses exports past the caps with Retry-After while three stall, keeps every lookup answering and ends a stalled export by its deadline', async () => {
    const [a, b] = [await newMerchant(system), await newMerchant(system)];
    const db = database();
    await db.connect();
    const sockets: Socket[] = [];
    try {
      await seed(db, a.accountId, 10_000, 9_000_000_000);
      await seed(db, b.accountId, 10_000, 9_100_000_000);
      const known = await create(payout());

      // Six readers that pause, each export's COPY started before the next is asked.
      for (const [n, key] of [a.sandbox, a.sandbox, b.sandbox].entries()) {
        sockets.push(stalledExport(key));
        await eventually(
          () => copiesRunning(db),
          (running) => running === n + 1,
          { timeoutMs: 10_000, intervalMs: 50, what: `export ${n + 1} running` },
        );
      }
      sockets.push(stalledExport(a.sandbox), stalledExport(b.sandbox), stalledExport(a.sandbox));

      // Past an account's cap: 429; past the exports' pool: 503; both at once, with Retry-After, never a wait or a 500.
      const more = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/withdrawals/period/csv?${periodOf()}`, { headers: { authorization: a.sandbox } });
      expect({ status: more.status, retryAfter: more.headers.get('retry-after'), body: await more.json() }).toEqual({
        status: 429,
        retryAfter: '5',
        body: { message: 'Too many CSV exports at once: this account may run 2 at a time; retry after the Retry-After seconds, once one has finished' },
      });
      const busy = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/withdrawals/period/csv?${periodOf()}`, {
        headers: { authorization: merchant.sandbox },
      });
      expect({ status: busy.status, retryAfter: busy.headers.get('retry-after'), body: await busy.json() }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { message: 'Too many CSV exports at once; retry after the Retry-After seconds' },
      });
      expect(await copiesRunning(db)).toBe(3); // still stalled, not finished

      // While the three exports stall, the lookups keep their own connections: each answers at once (a lookup waiting for a connection would take 5 s, then 503).
      for (let round = 0; round < 3; round++) {
        const started = performance.now();
        expect((await sandbox(`/v2/withdrawals?id=${known.id}`)).status).toBe(200);
        expect((await sandbox(`/v2/withdrawals?transaction_id=${known.transaction_id}`)).status).toBe(200);
        expect((await sandbox(`/v2/withdrawals/period?${periodOf()}`)).status).toBe(200);
        expect((await sandbox(`/v2/withdrawals/customer?document_number=${known.document_number}`)).status).toBe(200);
        expect(performance.now() - started).toBeLessThan(2000);
      }

      // The deadline: readers that took nothing for EXPORT_STALL_MS are cut, their connections closed, and exports run again.
      await eventually(
        () => copiesRunning(db),
        (running) => running === 0,
        { timeoutMs: EXPORT_STALL_MS * 3, intervalMs: 200, what: 'the stalled exports ended' },
      );
      const again = await csvOf(periodOf(), merchant.sandbox);
      expect(again.status).toBe(200);
      expect(again.text).toContain(known.transaction_id);
    } finally {
      for (const socket of sockets) socket.destroy();
      await db.end();
    }
  });
});

describe('the read model', () => {
  it('is rebuilt from the topic when its database is lost', async () => {
    const created = await create(payout());
    await settle(created.id);
    const before = await sandbox(`/v2/withdrawals?id=${created.id}`);
    expect(before.body.status).toBe(1);
    await system.crash('payout-query-service');
    const server = new Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
    await server.connect();
    await server.query(`DROP DATABASE "${system.profile.databasePrefix}_payout_query" WITH (FORCE)`);
    await server.end();
    await system.restart('payout-query-service');
    // The new database reads the topic from its start: the lookup answers 503 until it has caught up, then as before.
    expect(
      await eventually(
        () => sandbox(`/v2/withdrawals?id=${created.id}`),
        (a) => a.status === 200,
        REBUILD,
      ),
    ).toEqual(before);
  });
});
