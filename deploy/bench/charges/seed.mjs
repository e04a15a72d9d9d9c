// One day's charges, seeded: N approved production recurrences written straight into the recurrence-service and
// bank-simulator databases of the bench system, as the API and the payers' approvals would have left them, and the
// checks that the day issued each charge exactly once. Shared by bench:charges and bench:scale.
import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { countOf } from '../../scripts/bench-support.mjs';
import { PROFILES, ROOT } from '../../scripts/system.cjs';

const SEED_BATCH = 5000;
const p = PROFILES.bench;

/** A valid CPF from a 9-digit base (the check digits computed as the Receita Federal does). */
export function cpfOf(n) {
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
export async function seed(recDb, bankDb, { n: N, accounts: ACCOUNTS, log }) {
  const require = createRequire(import.meta.url);
  const lib = (name) => require(path.join(ROOT, 'dist', 'libs', name, 'src', 'index.js'));
  const { recurrence, recurrenceStreamId, RECURRENCE_STREAM, projectRecurrence } = lib('recurrences');
  const { addDays, brasiliaDate, isValidCpf, recurrencePixCode } = lib('pix');
  const { bankSettings, toBankDocument, toBankPeriodicity, toBankRetryPolicy } = lib('bank');

  const client = createHash('sha256').update(bankSettings().production.token).digest('hex'); // bank-client.decorator.ts
  const ispb = process.env.SIMULATOR_ISPB ?? '12345678';
  const payerIspb = '87654321'; // the simulator's payer institution (config.ts)
  const accountIds = Array.from({ length: ACCOUNTS }, () => randomUUID());
  const createdAt = new Date(Date.now() - 60_000);
  const approvedAt = new Date(Date.now() - 30_000);
  const today = brasiliaDate(approvedAt);
  const startDate = addDays(today, 5); // the first cycle's creation day (start - charge_lead_days) is today
  const idRecDay = brasiliaDate(createdAt).replace(/-/g, '');
  let nextChargeAt;
  // After the locations the bank has handed out already (a system that served requests before the seed).
  const firstLocation = Number((await bankDb.query('SELECT coalesce(max(id), 0) AS last FROM locations')).rows[0].last) + 1;

  const recurrenceRow = (i) => {
    const accountId = accountIds[i % ACCOUNTS];
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
      bank: { id_rec: idRec, location_id: firstLocation + i, location_url: locationUrl },
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
      locId: firstLocation + i,
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
      location: { id: firstLocation + i, client, kind: 'rec', location: locationUrl, created_at: createdAt, id_rec: idRec },
      bankRecurrence: {
        client,
        id_rec: idRec,
        status: 'APROVADA',
        loc_id: firstLocation + i,
        activation_txid: null,
        record: bankRecord,
        created_at: createdAt,
      },
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

/** What a charge day must leave behind for N seeded recurrences: each charge once, here and at the bank, the outbox empty. */
export async function chargeDayChecks(recDb, bankDb, client, n) {
  const checks = {
    charges: await countOf(recDb, 'SELECT count(*) FROM charges'),
    'charge.created events': await countOf(recDb, `SELECT count(*) FROM events WHERE type = 'charge.created'`),
    '(recurrence_id, cycle) twice': await countOf(
      recDb,
      'SELECT count(*) FROM (SELECT 1 FROM charges GROUP BY account_id, environment, recurrence_id, cycle HAVING count(*) > 1) d',
    ),
    'charge.created twice for a cycle': await countOf(
      recDb,
      `SELECT count(*) FROM (SELECT 1 FROM events WHERE type = 'charge.created' GROUP BY stream_id, data->>'cycle' HAVING count(*) > 1) d`,
    ),
    'recurrences still due': await countOf(recDb, 'SELECT count(*) FROM charge_schedule WHERE next_charge_at <= now()'),
    'recurring charges at the bank': await countOf(bankDb, 'SELECT count(*) FROM recurring_charges WHERE client = $1', [client]),
    'outbox rows left': await countOf(recDb, 'SELECT count(*) FROM outbox'),
  };
  const expected = {
    charges: n,
    'charge.created events': n,
    '(recurrence_id, cycle) twice': 0,
    'charge.created twice for a cycle': 0,
    'recurrences still due': 0,
    'recurring charges at the bank': n,
    'outbox rows left': 0,
  };
  return { checks, expected, failed: Object.keys(expected).filter((k) => checks[k] !== expected[k]) };
}
