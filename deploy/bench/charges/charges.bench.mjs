// npm run bench:charges: one day's cycle charges for N APPROVED production recurrences (default 100,000), created
// by the real recurrence-service scheduler (Charges.issueDueCharges) against the bank simulator, in the `bench`
// system (deploy/scripts/system.cjs). Target: under 60 s on a 2-core machine, with flat memory.
//
// How: the bench databases are dropped and the system started (its migrations recreate them); N recurrences are
// written straight into the databases as if they had been created and approved through the API (their events,
// built by the recurrence decider, the read-model rows built by its projection, the simulator's APROVADA
// recurrence), with the charge_schedule row's next_charge_at NULL, so the scheduler has nothing to do while they are
// written. No outbox rows: the seed is history, not news. Then "the day starts": one UPDATE sets next_charge_at to
// the start of today in Brasília (what the projection computed) and the clock runs from its commit until the
// charges table holds N rows.
//
// Prints: elapsed time and charges/s, RSS (min/max/last) of recurrence-service and bank-simulator sampled every
// second, CPU seconds per process group over the run, how long the outbox took to drain to Kafka, and checks
// (exactly N charges, N charge.created events, no (recurrence_id, cycle) twice, N recurring charges at the bank).
// The databases are left in place for inspection (the next run drops them); the system is always stopped.
//
// Options (environment):
//   CHARGES_BENCH_N (100000)           recurrences to seed, one charge each
//   CHARGES_BENCH_ACCOUNTS (10)        merchant accounts they are spread over
//   CHARGES_BENCH_TIMEOUT_S (900)      give up (and report the partial rate) after this long
//   CHARGES_BENCH_SKIP_BUILD or BENCH_SKIP_BUILD   use dist/ as it is
//   BENCH_SMOKE=1                      tiny: 200 recurrences over 2 accounts (what `npm test` runs)
//   CHARGE_SCHEDULER_CONCURRENCY, CHARGE_SCHEDULER_BATCH, CHARGE_SCHEDULER_INTERVAL_MS
//                                      passed through to recurrence-service (defaults 32, 250, 1000)
//   DATABASE_URL                       the PostgreSQL server (postgres://postgres@127.0.0.1:5432/postgres)
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { benchDatabaseUrl, dropBenchDatabases, onDatabase, setting } from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { PROFILES, ROOT, startSystem } from '../../scripts/system.cjs';

const N = setting('CHARGES_BENCH_N', 100_000, 200);
const ACCOUNTS = setting('CHARGES_BENCH_ACCOUNTS', 10, 2);
const TIMEOUT_MS = Number(process.env.CHARGES_BENCH_TIMEOUT_S ?? 900) * 1000;
const SEED_BATCH = 5000;
const p = PROFILES.bench;
const RECURRENCE_DB = benchDatabaseUrl('recurrence');
const BANK_DB = benchDatabaseUrl('bank_simulator');
const LOG_DIR = path.join(ROOT, '.data', 'logs', 'bench');
const WATCHED = ['recurrence-service', 'bank-simulator'];
const APPS = ['bank-simulator', 'limits-service', 'recurrence-service', 'payments-service', 'solicitation-service', 'api-gateway'];

const log = (message) => console.log(`[bench:charges] ${message}`);
const seconds = (ms) => (ms / 1000).toFixed(1);
const mb = (kb) => `${Math.round(kb / 1024)} MB`;

if (!Number.isSafeInteger(N) || N < 1) throw new Error(`CHARGES_BENCH_N=${process.env.CHARGES_BENCH_N} is not a positive integer`);

const count = async (db, sql, values) => Number((await db.query(sql, values)).rows[0].count);

// ---- /proc: resident memory and CPU time ----

function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of every live process, grouped: the system's apps by name, PostgreSQL, Kafka, the rest. */
function cpuByGroup(appPids) {
  const groupOfPid = new Map([...appPids].map(([name, pid]) => [pid, name]));
  const totals = {};
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
    const pid = Number(entry);
    const group =
      groupOfPid.get(pid) ?? (comm.startsWith('postgres') ? 'postgresql' : comm === 'java' ? 'kafka (java)' : pid === process.pid ? 'this script' : 'other');
    totals[group] = (totals[group] ?? 0) + cpu;
  }
  return totals;
}

/** Busy and total jiffies of the whole machine. */
function machineCpu() {
  const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const v = values.map(Number);
  const idle = v[3] + v[4];
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

// ---- the seed ----

/** A valid CPF from a 9-digit base (the check digits computed as the Receita Federal does). */
function cpfOf(n) {
  const digits = String(n).padStart(9, '0').slice(-9).split('').map(Number);
  if (digits.every((d) => d === digits[0])) digits[8] = (digits[8] + 1) % 10;
  const check = (ds) => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join('');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A projection's INSERT INTO <table> as a row: its column list, read from its own SQL text, paired with the row it
 * writes through unnest (rowsSql), so that the seeded read-model row is the one the projection would write.
 */
function projectedRow(statements, table) {
  const pattern = new RegExp(`INSERT INTO ${table} AS \\w+ \\(([^)]*)\\)`);
  const statement = statements.find((candidate) => pattern.test(candidate.text));
  const columns =
    statement &&
    pattern
      .exec(statement.text)[1]
      .split(',')
      .map((c) => c.trim());
  const row = statement?.rows?.[0];
  if (!columns || !row || columns.length !== row.length) throw new Error(`cannot read the projection's ${table} statement: has it changed?`);
  return Object.fromEntries(columns.map((column, index) => [column, row[index]]));
}

/**
 * Writes N approved production recurrences straight into the recurrence-service and bank-simulator databases, as
 * the API and the payer's approval by QR (journey 2) would have left them, with next_charge_at NULL. Resolves to
 * the instant the projection computed for next_charge_at (the start of today in Brasília).
 */
async function seed(recDb, bankDb) {
  const require = createRequire(import.meta.url);
  const lib = (name) => require(path.join(ROOT, 'dist', 'libs', name, 'src', 'index.js'));
  const { recurrence, recurrenceStreamId, RECURRENCE_STREAM, projectRecurrence } = lib('recurrences');
  const { addDays, brasiliaDate, isValidCpf, recurrencePixCode } = lib('pix');
  const { bankSettings, toBankDocument, toBankPeriodicity, toBankRetryPolicy } = lib('bank');

  const client = createHash('sha256').update(bankSettings().production.token).digest('hex'); // bank-client.decorator.ts
  const ispb = process.env.SIMULATOR_ISPB ?? '12345678';
  const payerIspb = '87654321'; // the simulator's payer institution (config.ts)
  const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
  const createdAt = new Date(Date.now() - 60_000);
  const approvedAt = new Date(Date.now() - 30_000);
  const today = brasiliaDate(approvedAt);
  const startDate = addDays(today, 5); // the first cycle's creation day (start - charge_lead_days) is today
  const idRecDay = brasiliaDate(createdAt).replace(/-/g, '');
  let nextChargeAt;

  const recurrenceRow = (i) => {
    const accountId = accounts[i % ACCOUNTS];
    const tenant = { accountId, environment: 'production' };
    const recurrenceId = randomUUID();
    const idRec = `RN${ispb}${idRecDay}${Array.from({ length: 11 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('')}`;
    const locationUrl = `127.0.0.1:${p.bank}/qr/v2/rec/${randomBytes(16).toString('hex')}`;
    const document = cpfOf(100_000_000 + i);
    if (i === 0 && !isValidCpf(document)) throw new Error(`${document} is not a valid CPF`);
    const data = {
      recurrence_id: recurrenceId,
      transaction_id: `bench-charges-${String(i).padStart(7, '0')}`,
      object: null,
      debtor: { document_number: document, name: `Pagador Bench ${i}`, email: null, address: null },
      schedule: { start_date: startDate, end_date: null, periodicity: 'MONTHLY' },
      amount_centavos: 1000 + (i % 500) * 100,
      retry_policy: 'NOT_ALLOWED',
      business_day_adjust: false,
      charge_lead_days: 5,
      webhook: null,
      bank: { id_rec: idRec, location_id: i + 1, location_url: locationUrl },
      pix_copy_paste: recurrencePixCode({ merchantName: `Bench Merchant ${i % ACCOUNTS}`, merchantCity: 'SAO PAULO', recurrenceUrl: locationUrl }),
      activation: null,
    };
    // The events, as the decider writes them for CreateRecurrence, then the payer's approval by QR (journey 2).
    const create = recurrence.decide({ type: 'CreateRecurrence', data, today }, recurrence.initialState);
    if (!create.ok) throw new Error(`CreateRecurrence refused: ${JSON.stringify(create.refusal)}`);
    const created = create.events.reduce(recurrence.evolve, recurrence.initialState);
    const approve = recurrence.decide({ type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: approvedAt.toISOString(), today }, created);
    if (!approve.ok) throw new Error(`ApproveRecurrence refused: ${JSON.stringify(approve.refusal)}`);
    const approved = approve.events.reduce(recurrence.evolve, created);
    const streamId = recurrenceStreamId(tenant, recurrenceId);
    const events = [...create.events.map((e) => ({ ...e, occurredAt: createdAt })), ...approve.events.map((e) => ({ ...e, occurredAt: approvedAt }))].map(
      (e, index) => ({
        eventId: randomUUID(),
        streamId,
        streamType: RECURRENCE_STREAM,
        version: index + 1,
        type: e.type,
        data: e.data,
        tenant,
        occurredAt: e.occurredAt,
      }),
    );
    if (events.length !== 2) throw new Error(`expected 2 events, the decider wrote ${events.length}`);

    // The read-model row: the projection of the approval (the last append) over the full state; created_at is the
    // creation's, which the approval's upsert leaves as the first append wrote it.
    const statements = projectRecurrence(events.slice(1), approved);
    if (statements.length !== 2) throw new Error(`expected 2 read-model statements, the projection wrote ${statements.length}`);
    const row = projectedRow(statements, 'recurrences');
    row.created_at = createdAt;
    const schedule = projectedRow(statements, 'charge_schedule');
    const due = schedule.next_charge_at;
    if (!(due instanceof Date)) throw new Error(`the projection computed no next_charge_at (${due})`);
    if (nextChargeAt === undefined) nextChargeAt = due;
    else if (due.getTime() !== nextChargeAt.getTime()) throw new Error('seeded recurrences differ in next_charge_at');
    schedule.next_charge_at = null; // paused until the day starts

    // The simulator's recurrence: created by POST /rec (newRecurrence), approved by the payer's QR (approve).
    const devedor = { ...toBankDocument(document), nome: data.debtor.name };
    const bankRecord = {
      idRec,
      status: 'APROVADA',
      vinculo: { contrato: data.transaction_id, devedor },
      calendario: { dataInicial: startDate, periodicidade: toBankPeriodicity('MONTHLY') },
      valor: { rec: data.amount_centavos },
      politicaRetentativa: toBankRetryPolicy('NOT_ALLOWED'),
      locId: i + 1,
      activationTxid: null,
      tipoJornada: 'JORNADA_2',
      pagador: { ...toBankDocument(document), ispbParticipante: payerIspb },
      encerramento: null,
      atualizacao: [
        { status: 'CRIADA', data: createdAt.toISOString() },
        { status: 'APROVADA', data: approvedAt.toISOString() },
      ],
    };
    return {
      events: events.map((e) => ({
        event_id: e.eventId,
        stream_id: e.streamId,
        stream_type: e.streamType,
        version: e.version,
        type: e.type,
        data: e.data,
        account_id: accountId,
        environment: 'production',
        occurred_at: e.occurredAt,
      })),
      row,
      schedule,
      location: { id: i + 1, client, kind: 'rec', location: locationUrl, created_at: createdAt, id_rec: idRec },
      bankRecurrence: { client, id_rec: idRec, status: 'APROVADA', loc_id: i + 1, activation_txid: null, record: bankRecord, created_at: createdAt },
    };
  };

  /** One INSERT ... SELECT FROM jsonb_to_recordset per table and batch: one round trip for thousands of rows. */
  const insert = (db, table, columnsWithTypes, rows) => {
    const names = columnsWithTypes.split(',').map((c) => c.trim().split(/\s+/)[0]);
    return db.query(`INSERT INTO ${table} (${names.join(', ')}) SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${columnsWithTypes})`, [
      JSON.stringify(rows),
    ]);
  };
  const EVENT_COLUMNS =
    'event_id uuid, stream_id text, stream_type text, version int, type text, data jsonb, account_id text, environment text, occurred_at timestamptz';
  /** The table's columns that the projection's row writes, with their SQL types, for jsonb_to_recordset. */
  const columnsOf = async (table, row) => {
    const { rows: columns } = await recDb.query(
      `SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [table],
    );
    const unknown = Object.keys(row).filter((column) => !columns.some(({ attname }) => attname === column));
    if (unknown.length > 0) throw new Error(`the projection writes columns ${table} lacks: ${unknown.join(', ')}`);
    return columns
      .filter(({ attname }) => attname in row)
      .map(({ attname, type }) => `${attname} ${type}`)
      .join(', ');
  };

  for (let from = 0; from < N; from += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, N - from) }, (_, k) => recurrenceRow(from + k));
    await recDb.query('BEGIN');
    await insert(
      recDb,
      'events',
      EVENT_COLUMNS,
      batch.flatMap((r) => r.events),
    );
    await insert(
      recDb,
      'recurrences',
      await columnsOf('recurrences', batch[0].row),
      batch.map((r) => r.row),
    );
    await insert(
      recDb,
      'charge_schedule',
      await columnsOf('charge_schedule', batch[0].schedule),
      batch.map((r) => r.schedule),
    );
    await recDb.query('COMMIT');
    await bankDb.query('BEGIN');
    await insert(
      bankDb,
      'locations',
      'id bigint, client text, kind text, location text, created_at timestamptz, id_rec text',
      batch.map((r) => r.location),
    );
    await insert(
      bankDb,
      'recurrences',
      'client text, id_rec text, status text, loc_id bigint, activation_txid text, record jsonb, created_at timestamptz',
      batch.map((r) => r.bankRecurrence),
    );
    await bankDb.query('COMMIT');
    if ((from / SEED_BATCH) % 4 === 3) log(`  seeded ${from + batch.length} of ${N}`);
  }
  await bankDb.query(`SELECT setval(pg_get_serial_sequence('locations', 'id'), (SELECT max(id) FROM locations))`);
  return { nextChargeAt, client, today, startDate };
}

// ---- the run ----

function settings() {
  return {
    N,
    accounts: ACCOUNTS,
    CHARGE_SCHEDULER_CONCURRENCY: process.env.CHARGE_SCHEDULER_CONCURRENCY ?? '32 (default)',
    CHARGE_SCHEDULER_BATCH: process.env.CHARGE_SCHEDULER_BATCH ?? '250 (default)',
    CHARGE_SCHEDULER_INTERVAL_MS: process.env.CHARGE_SCHEDULER_INTERVAL_MS ?? '1000 (default)',
    'recurrences per scheduler run': '20000 (issueDueCharges default), 4 batches at once',
    cores: os.cpus().length,
    node: process.version,
  };
}

/** Lines of a log written after `offset` that say WARN or ERROR: the first few, and how many. */
function problemsIn(file, offset) {
  try {
    const text = fs.readFileSync(file, 'utf8').slice(offset);
    const lines = text.split('\n').filter((l) => /\b(WARN|ERROR)\b/.test(l));
    return { count: lines.length, first: lines.slice(0, 3) };
  } catch {
    return { count: 0, first: [] };
  }
}

const logSize = (name) => {
  try {
    return fs.statSync(path.join(LOG_DIR, `${name}.log`)).size;
  } catch {
    return 0;
  }
};

async function main() {
  log(`settings: ${JSON.stringify(settings())}`);
  await up();
  if (!process.env.CHARGES_BENCH_SKIP_BUILD && !process.env.BENCH_SKIP_BUILD) {
    log('building (swc apps libs -> dist)');
    execFileSync('npx', ['swc', 'apps', 'libs', '-d', 'dist', '--config-file', '.swcrc', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  }
  await dropBenchDatabases();
  log('starting the bench system');
  const system = await startSystem({ profile: 'bench', adminToken: 'bench-admin-token' });
  const stopSystem = async () => {
    log('stopping the bench system');
    await system.stop();
  };
  const onSignal = () => void stopSystem().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const recDb = new pg.Client({ connectionString: RECURRENCE_DB });
  const bankDb = new pg.Client({ connectionString: BANK_DB });
  try {
    await recDb.connect();
    await bankDb.connect();

    const seedStart = performance.now();
    log(`seeding ${N} approved recurrences over ${ACCOUNTS} accounts`);
    const { nextChargeAt, client, today, startDate } = await seed(recDb, bankDb);
    for (const table of ['events', 'recurrences', 'charge_schedule']) await recDb.query(`VACUUM ANALYZE ${table}`);
    for (const table of ['locations', 'recurrences']) await bankDb.query(`VACUUM ANALYZE ${table}`);
    log(`seeded in ${seconds(performance.now() - seedStart)} s (today ${today}, start_date ${startDate}, next_charge_at ${nextChargeAt.toISOString()})`);

    // The scheduler must be able to reach the bank's webhook: wait for recurrence-service to have registered it.
    for (let waited = 0; (await count(bankDb, 'SELECT count(*) FROM recurring_charge_webhooks WHERE client = $1', [client])) === 0; waited += 250) {
      if (waited > 30_000) throw new Error('recurrence-service registered no cobr webhook at the bank in 30 s');
      await sleep(250);
    }
    if ((await count(recDb, 'SELECT count(*) FROM charges')) !== 0) throw new Error('charges exist before the day started');
    if ((await count(recDb, 'SELECT count(*) FROM outbox')) !== 0) throw new Error('the seed left outbox rows');

    const pids = new Map(APPS.map((name) => [name, system.pidOf(name)]));
    const rss = Object.fromEntries(WATCHED.map((name) => [name, { min: Infinity, max: 0, last: NaN, first: rssKb(pids.get(name)) }]));
    const sampleRss = () => {
      for (const name of WATCHED) {
        const kb = rssKb(pids.get(name));
        if (Number.isNaN(kb)) continue;
        Object.assign(rss[name], { min: Math.min(rss[name].min, kb), max: Math.max(rss[name].max, kb), last: kb });
      }
    };
    const logOffsets = Object.fromEntries(WATCHED.map((name) => [name, logSize(name)]));

    // ---- the day starts ----
    // Timed from the UPDATE's commit, when the recurrences become due: the scheduler can see none of them before.
    // (In a running system next_charge_at is already set and the day comes by the clock, with no such UPDATE.)
    const updateStart = performance.now();
    const { rowCount } = await recDb.query(`UPDATE charge_schedule SET next_charge_at = $1 WHERE environment = 'production' AND next_charge_at IS NULL`, [
      nextChargeAt,
    ]);
    const cpuBefore = cpuByGroup(pids);
    const machineBefore = machineCpu();
    const t0 = performance.now();
    const updateMs = t0 - updateStart;
    if (rowCount !== N) throw new Error(`the day started for ${rowCount} recurrences, not ${N}`);
    log(`the day started: next_charge_at set for ${rowCount} recurrences in ${Math.round(updateMs)} ms; counting charges`);

    let charges = 0;
    let lastRss = 0;
    let lastReport = t0;
    let done;
    for (;;) {
      const now = performance.now();
      charges = await count(recDb, 'SELECT count(*) FROM charges');
      if (now - lastRss >= 1000) {
        sampleRss();
        lastRss = now;
      }
      if (charges >= N) {
        done = performance.now();
        break;
      }
      if (now - lastReport >= 5000) {
        lastReport = now;
        const elapsed = now - t0;
        log(
          `  ${seconds(elapsed)} s: ${charges} charges (${Math.round(charges / (elapsed / 1000))}/s); RSS ${WATCHED.map((n) => `${n} ${mb(rss[n].last)}`).join(', ')}`,
        );
      }
      if (now - t0 > TIMEOUT_MS) break;
      // count(*) scans the table: polled once a second while far from done (it competes with what is measured), then
      // every 100 ms over the last seconds, so the end is still seen within 0.1 s.
      const rate = charges / Math.max(1, (now - t0) / 1000);
      const secondsLeft = rate > 0 ? (N - charges) / rate : Infinity;
      await sleep(secondsLeft > 3 ? 1000 : 100);
    }
    sampleRss();
    const cpuAfter = cpuByGroup(pids);
    const machineAfter = machineCpu();
    const end = done ?? performance.now();
    const elapsedMs = end - t0;

    // The outbox: how long until every charge.created left for Kafka.
    let outboxDrainedAt;
    for (;;) {
      const left = await count(recDb, 'SELECT count(*) FROM outbox');
      if (left === 0) {
        outboxDrainedAt = performance.now();
        break;
      }
      if (performance.now() - end > 300_000) {
        log(`  outbox: still ${left} rows 5 min after the last charge; giving up waiting`);
        break;
      }
      await sleep(250);
    }

    // ---- checks ----
    await sleep(1500); // the last recurrences' scheduler note (postponeNextCharge) follows their charge
    const checks = {
      charges: await count(recDb, 'SELECT count(*) FROM charges'),
      'charge.created events': await count(recDb, `SELECT count(*) FROM events WHERE type = 'charge.created'`),
      '(recurrence_id, cycle) twice': await count(
        recDb,
        'SELECT count(*) FROM (SELECT 1 FROM charges GROUP BY account_id, environment, recurrence_id, cycle HAVING count(*) > 1) d',
      ),
      'charge.created twice for a cycle': await count(
        recDb,
        `SELECT count(*) FROM (SELECT 1 FROM events WHERE type = 'charge.created' GROUP BY stream_id, data->>'cycle' HAVING count(*) > 1) d`,
      ),
      'recurrences still due': await count(recDb, 'SELECT count(*) FROM charge_schedule WHERE next_charge_at <= now()'),
      'recurring charges at the bank': await count(bankDb, 'SELECT count(*) FROM recurring_charges WHERE client = $1', [client]),
      'outbox rows left': await count(recDb, 'SELECT count(*) FROM outbox'),
    };
    const expected = {
      charges: N,
      'charge.created events': N,
      '(recurrence_id, cycle) twice': 0,
      'charge.created twice for a cycle': 0,
      'recurrences still due': 0,
      'recurring charges at the bank': N,
      'outbox rows left': 0,
    };
    const failed = Object.keys(expected).filter((k) => checks[k] !== expected[k]);
    const problems = Object.fromEntries(WATCHED.map((name) => [name, problemsIn(path.join(LOG_DIR, `${name}.log`), logOffsets[name])]));

    // ---- report ----
    const cpuSeconds = Object.entries(cpuAfter)
      .map(([group, after]) => [group, after - (cpuBefore[group] ?? 0)])
      .filter(([, s]) => s >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const lines = [
      `One day's charge creation: ${N} APPROVED production recurrences, ${ACCOUNTS} accounts, ${os.cpus().length} cores`,
      `settings: CHARGE_SCHEDULER_CONCURRENCY=${settings().CHARGE_SCHEDULER_CONCURRENCY}, CHARGE_SCHEDULER_BATCH=${settings().CHARGE_SCHEDULER_BATCH}, CHARGE_SCHEDULER_INTERVAL_MS=${settings().CHARGE_SCHEDULER_INTERVAL_MS}, up to 20000 recurrences per run, 4 batches at once`,
      '',
      '| figure | value |',
      '|---|---:|',
      `| ${done ? 'elapsed until N charges' : `TIMED OUT after (charges: ${charges} of ${N})`} | ${seconds(elapsedMs)} s |`,
      `| charges/s | ${Math.round(charges / (elapsedMs / 1000))} |`,
      `| outbox drained to Kafka, from the day's start | ${outboxDrainedAt ? `${seconds(outboxDrainedAt - t0)} s` : 'not drained'} |`,
      `| outbox drained, after the last charge | ${outboxDrainedAt ? `${seconds(outboxDrainedAt - end)} s` : 'not drained'} |`,
      ...WATCHED.map(
        (name) => `| ${name} RSS before / min / max / last | ${mb(rss[name].first)} / ${mb(rss[name].min)} / ${mb(rss[name].max)} / ${mb(rss[name].last)} |`,
      ),
      `| machine CPU busy during the run | ${Math.round(machineBusy * 100)}% of ${os.cpus().length} cores |`,
      '',
      'CPU seconds during the run, by process:',
      '',
      '| process | CPU s | share of one core |',
      '|---|---:|---:|',
      ...cpuSeconds.map(([group, s]) => `| ${group} | ${s.toFixed(1)} | ${Math.round((s / (elapsedMs / 1000)) * 100)}% |`),
      '',
      `checks: ${Object.entries(checks)
        .map(([k, v]) => `${k} ${v}${v === expected[k] ? '' : ` (expected ${expected[k]})`}`)
        .join('; ')}`,
      ...WATCHED.filter((name) => problems[name].count > 0).map(
        (name) => `${name}: ${problems[name].count} WARN/ERROR log lines, e.g.\n  ${problems[name].first.join('\n  ')}`,
      ),
    ];
    console.log(`\n${lines.join('\n')}`);
    fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'charges.md'), `${lines.join('\n')}\n`);
    if (!done || failed.length > 0) {
      process.exitCode = 1;
      if (failed.length > 0) log(`FAILED checks: ${failed.join(', ')}`);
    }
  } finally {
    await recDb.end().catch(() => undefined);
    await bankDb.end().catch(() => undefined);
    await stopSystem();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

await main();
