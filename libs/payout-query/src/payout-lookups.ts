import type { Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { EventEnvelope, PayoutCreatedData, PayoutEventTypes, PayoutRecordData, PayoutReturnData, PayoutStatusChangedData, Tenant } from '@pixauto/contracts';
import { isoUtc } from '@pixauto/pix';
import { Period, PayoutLookup, PeriodPageQuery } from './lookup-queries';

export const PAYOUT_EVENT_TYPES: readonly string[] = Object.values(PayoutEventTypes);

const COLUMNS = [
  'account_id',
  'environment',
  'id',
  'transaction_id',
  'name',
  'document_number',
  'document_type',
  'amount_centavos',
  'status',
  'pix_key',
  'bank_name',
  'bank_code',
  'ispb',
  'account_agency',
  'account_number',
  'webhook',
  'provider',
  'created_at',
  'paid_at',
  'e2e',
  'psp_id',
  'returns',
  'version',
] as const;
const UPDATED = COLUMNS.filter((column) => !['account_id', 'environment', 'id'].includes(column));

/**
 * Applies payout events: each row becomes the record of the latest event seen for it, unless a later version is
 * already there. So a redelivery, a replay of the topic or events out of order change nothing they should not (no
 * processed-messages table needed), and the table can be rebuilt from the topic alone. The daily counts move with the
 * rows, in the same transaction: +1 for a new row's day and status, -1 and +1 for a row whose status changed. A few
 * statements per batch, whatever its size: a replay of the whole topic goes at thousands of events a second.
 */
export async function applyPayoutEvents(db: EntityManager, events: readonly EventEnvelope[]): Promise<void> {
  const latest = new Map<string, EventEnvelope>();
  for (const event of events) {
    if (!PAYOUT_EVENT_TYPES.includes(event.type)) continue;
    const key = eventKeyOf(event);
    const seen = latest.get(key);
    if (!seen || seen.version < event.version) latest.set(key, event); // one statement may not touch a row twice
  }
  const all = [...latest.values()];
  for (let from = 0; from < all.length; from += ROWS_PER_STATEMENT) await applyBatch(db, all.slice(from, from + ROWS_PER_STATEMENT));
}

/** PostgreSQL takes at most 65,535 parameters per statement: 23 per row. */
const ROWS_PER_STATEMENT = 1000;

interface CountedRow {
  account_id: string;
  environment: string;
  id: string;
  status: number;
  created_at: Date;
}

/**
 * New rows first (ON CONFLICT DO NOTHING: a concurrent insert of the same payout waits for the other's commit and
 * then does nothing), then the existing ones locked and read as they are before being updated, so the counts' -1
 * always takes the status that was really there. Returned rows are the ones that changed.
 */
async function applyBatch(db: EntityManager, latest: EventEnvelope[]): Promise<void> {
  const inserted: CountedRow[] = await db.query(
    `INSERT INTO payout_lookups (${COLUMNS.join(', ')}) ${valuesOf(latest)}
     ON CONFLICT (account_id, environment, id) DO NOTHING RETURNING account_id, environment, id, status, created_at`,
    latest.flatMap(rowOf),
  );
  const isNew = new Set(inserted.map(keyOf));
  const rest = latest.filter((event) => !isNew.has(eventKeyOf(event)));
  const deltas = new Map<string, { account_id: string; environment: string; day: string; status: number; delta: number }>();
  const count = (row: CountedRow, delta: number) => {
    const day = isoUtc(row.created_at).slice(0, 10);
    const key = `${row.account_id}:${row.environment}:${day}:${row.status}`;
    const entry = deltas.get(key) ?? { account_id: row.account_id, environment: row.environment, day, status: row.status, delta: 0 };
    deltas.set(key, { ...entry, delta: entry.delta + delta });
  };
  for (const row of inserted) count(row, +1);
  if (rest.length > 0) {
    const keys = rest.map((event) => [event.tenant.account_id, event.tenant.environment, (event.data as PayoutCreatedData).payout.id]);
    const before: CountedRow[] = await db.query(
      `SELECT account_id, environment, id, status, created_at FROM payout_lookups
        WHERE (account_id, environment, id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]))
        ORDER BY account_id, environment, id FOR UPDATE`,
      [keys.map((k) => k[0]), keys.map((k) => k[1]), keys.map((k) => k[2])],
    );
    const [updated]: [CountedRow[], number] = await db.query(
      `UPDATE payout_lookups AS l SET ${UPDATED.map((column) => `${column} = v.${column}`).join(', ')}
         FROM (${valuesOf(rest)}) AS v (${COLUMNS.join(', ')})
        WHERE l.account_id = v.account_id AND l.environment = v.environment AND l.id = v.id AND l.version < v.version
        RETURNING l.account_id, l.environment, l.id, l.status, l.created_at`,
      rest.flatMap(rowOf),
    );
    const beforeByKey = new Map(before.map((row) => [keyOf(row), row]));
    for (const row of updated) {
      const was = beforeByKey.get(keyOf(row))!;
      if (was.status === row.status) continue;
      count(was, -1);
      count(row, +1);
    }
  }
  const changes = [...deltas.values()]
    .filter((d) => d.delta !== 0)
    .sort((a, b) => (a.account_id + a.day + a.status < b.account_id + b.day + b.status ? -1 : 1));
  if (changes.length === 0) return;
  await db.query(
    `INSERT INTO payout_daily_counts AS c (account_id, environment, day, status, count)
     SELECT * FROM unnest($1::text[], $2::text[], $3::date[], $4::smallint[], $5::int[])
     ON CONFLICT (account_id, environment, day, status) DO UPDATE SET count = c.count + EXCLUDED.count`,
    [changes.map((c) => c.account_id), changes.map((c) => c.environment), changes.map((c) => c.day), changes.map((c) => c.status), changes.map((c) => c.delta)],
  );
}

const keyOf = (row: { account_id: string; environment: string; id: string | number }) => `${row.account_id}:${row.environment}:${row.id}`;
const eventKeyOf = (event: EventEnvelope) => `${event.tenant.account_id}:${event.tenant.environment}:${(event.data as PayoutCreatedData).payout.id}`;

/** A VALUES list of the events' rows, each cast to its column's type (the UPDATE's FROM needs them typed). */
function valuesOf(events: EventEnvelope[]): string {
  const width = COLUMNS.length;
  return `VALUES ${events.map((_, r) => `(${COLUMNS.map((column, c) => `$${r * width + c + 1}${CASTS[column] ?? ''}`).join(', ')})`).join(', ')}`;
}

const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = {
  id: '::bigint',
  amount_centavos: '::bigint',
  status: '::smallint',
  created_at: '::timestamptz',
  paid_at: '::timestamptz',
  returns: '::jsonb',
  version: '::int',
};

function rowOf(event: EventEnvelope): unknown[] {
  const p = (event.data as PayoutCreatedData | PayoutStatusChangedData).payout;
  return [
    event.tenant.account_id,
    event.tenant.environment,
    p.id,
    p.transaction_id,
    p.name,
    p.document_number,
    p.document_type,
    p.amount_centavos,
    p.status,
    p.pix_key,
    p.bank.bank_name,
    p.bank.bank_code,
    p.bank.ispb,
    p.bank.account_agency,
    p.bank.account_number,
    p.webhook,
    p.provider,
    p.created_at,
    p.paid_at,
    p.e2e,
    p.psp_id,
    JSON.stringify(p.returns ?? []),
    event.version,
  ];
}

/**
 * The consumer group that fills this database: named after it and its generation, so a new database rebuilds the
 * read model from the start of the topic rather than resuming where a lost one had stopped.
 */
export async function payoutFollowerGroup(db: EntityManager, databaseName: string): Promise<string> {
  const [{ generation }] = await db.query('SELECT generation FROM payout_lookups_generation');
  return `${databaseName}-${generation}`;
}

interface PayoutRow {
  id: string;
  transaction_id: string;
  name: string;
  document_number: string;
  document_type: 'CPF' | 'CNPJ';
  amount_centavos: string;
  status: number;
  pix_key: string | null;
  bank_name: string | null;
  bank_code: string | null;
  ispb: string | null;
  account_agency: string | null;
  account_number: string | null;
  webhook: string | null;
  provider: string;
  created_at: Date;
  paid_at: Date | null;
  e2e: string | null;
  psp_id: string | null;
  returns: PayoutReturnData[];
}

const recordOf = (row: PayoutRow): PayoutRecordData => ({
  id: Number(row.id),
  transaction_id: row.transaction_id,
  name: row.name,
  document_number: row.document_number,
  document_type: row.document_type,
  amount_centavos: Number(row.amount_centavos),
  status: row.status as PayoutRecordData['status'],
  pix_key: row.pix_key,
  bank: {
    type: 'PIX',
    bank_name: row.bank_name,
    bank_code: row.bank_code,
    ispb: row.ispb,
    account_agency: row.account_agency,
    account_number: row.account_number,
  },
  webhook: row.webhook,
  provider: row.provider,
  created_at: isoUtc(row.created_at),
  paid_at: row.paid_at && isoUtc(row.paid_at),
  e2e: row.e2e,
  psp_id: row.psp_id,
  returns: row.returns,
});

const SELECTED = COLUMNS.filter((column) => !['account_id', 'environment', 'version'].includes(column)).join(', ');

/**
 * A named prepared statement on the pool under TypeORM (its `query` cannot name one): each connection plans it once.
 * Planning was a third of PostgreSQL's time on a period page (pgbench, 20 clients: 435 pages/s unnamed, 647 named).
 */
async function prepared<T>(db: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (db.connection.driver as unknown as { master: Pool }).master;
  return (await pool.query({ name, text, values })).rows as T[];
}

/** 4.8: by id or by transaction_id, within the tenant only. */
export async function findPayoutLookup(db: EntityManager, tenant: Tenant, lookup: PayoutLookup): Promise<PayoutRecordData | undefined> {
  const [column, value] = 'id' in lookup ? ['id', lookup.id] : ['transaction_id', lookup.transaction_id];
  const rows = await prepared<PayoutRow>(
    db,
    `payout-by-${column}`,
    `SELECT ${SELECTED} FROM payout_lookups WHERE account_id = $1 AND environment = $2 AND ${column} = $3`,
    [tenant.accountId, tenant.environment, value],
  );
  return rows[0] && recordOf(rows[0]);
}

const DAY_MS = 86_400_000;
/**
 * to_char's pattern for isoUtc's form: 2026-11-22T08:43:39.123Z. The colons are quoted text, so no `:name` in the
 * statement looks like a variable to pgbench, which runs it alone in the bench.
 */
const ISO_UTC = `'YYYY-MM-DD"T"HH24":"MI":"SS.MS"Z"'`;

/**
 * How a period splits for counting: its whole UTC days ([firstDay, endDay), read from the daily counts), and the
 * partial days before and after them (`before`, `after`: [from, to) ranges counted in the rows; empty when the period
 * starts or ends on midnight). A period inside one day has no whole day and is all `before`. `after` always ends where
 * the period does.
 */
export function periodSpans(period: Period): { before: [Date, Date]; firstDay: Date; endDay: Date; after: [Date, Date] } {
  const start = period.start.getTime();
  const end = period.endBefore.getTime();
  const firstWhole = Math.ceil(start / DAY_MS) * DAY_MS;
  const endWhole = Math.floor(end / DAY_MS) * DAY_MS;
  if (firstWhole >= endWhole)
    return { before: [period.start, period.endBefore], firstDay: period.endBefore, endDay: period.endBefore, after: [period.endBefore, period.endBefore] };
  return {
    before: [period.start, new Date(firstWhole)],
    firstDay: new Date(firstWhole),
    endDay: new Date(endWhole),
    after: [new Date(endWhole), period.endBefore],
  };
}

/** A JSON string, or null, for a text column that may be null (concat_ws would leave a null out). */
const jsonOrNull = (column: string) => `coalesce(to_json(${column})::text, 'null')`;
/** ISO 8601 in UTC with milliseconds, as the API shows timestamps (isoUtc): as a JSON string, null when the column is. */
const isoJson = (column: string) => `to_json(to_char(${column} AT TIME ZONE 'UTC', ${ISO_UTC}))::text`;

/**
 * One payout as the period lookup lists it (the record's period form: the by-id form without bank_name and refund_id), as JSON text built by
 * PostgreSQL in the by-id form's key order. concat_ws leaves out a member that is null: paid_at, e2e and psp_id until
 * known. The amount is float8 centavos / 100, the very division centavosToReais makes, printed shortest as JavaScript does.
 */
const PERIOD_ITEM_JSON = `'{' || concat_ws(',',
    '"id":' || id,
    '"transaction_id":' || to_json(transaction_id),
    '"name":' || to_json(name),
    '"document_number":' || to_json(document_number),
    '"document_type":' || to_json(document_type),
    '"currency":"BRL"',
    '"amount":' || (amount_centavos::float8 / 100),
    '"status":' || status,
    '"bank":{"type":"PIX","ispb":' || ${jsonOrNull('ispb')} || ',"account_agency":' || ${jsonOrNull('account_agency')} ||
      ',"account_number":' || ${jsonOrNull('account_number')} || '}',
    '"webhook":' || ${jsonOrNull('webhook')},
    '"created_at":' || ${isoJson('created_at')},
    '"paid_at":' || ${isoJson('paid_at')},
    '"e2e":' || to_json(e2e),
    '"psp_id":' || to_json(psp_id)
  ) || '}'`;

/**
 * 4.9: one page of a tenant's period, oldest first (created_at, then id: stable across pages), as the JSON text of the
 * answer, in one statement. Its count: the whole days' from the daily counts the projection keeps, the partial days'
 * from the period index. The same counts, summed in order, say which day the page starts in and how many of that day's
 * rows come before it, so the page's keys are read from there in the period index (a month's deep page skips at most a
 * day's rows) and only the page's own rows from the table. PostgreSQL writes the page's JSON: no row is parsed into
 * objects and serialized again on its way to the merchant.
 */
export async function periodPageJson(db: EntityManager, tenant: Tenant, query: PeriodPageQuery): Promise<string> {
  const byStatus = query.status !== undefined;
  const [{ count, data }] = await prepared<{ count: number; data: string }>(
    db,
    `payout-period-page${byStatus ? '-status' : ''}`,
    periodPageStatement(byStatus),
    periodPageValues(tenant, query),
  );
  return `{"count_data":${count},"page":${query.page},"size":${query.size},"count_pages":${Math.ceil(count / query.size)},"data":${data}}`;
}

/**
 * periodPageJson's statement (the bench runs it on PostgreSQL alone): $1-$2 the tenant, $3-$4 the partial first day,
 * $5-$6 the partial last day (ending where the period does), $7-$8 the whole days, $9 the page's offset, $10 its size,
 * $11 the status when filtered. It answers `count` and `data`, the page's JSON array.
 */
export function periodPageStatement(byStatus: boolean): string {
  const status = byStatus ? ' AND status = $11' : '';
  return `WITH counted AS (
       SELECT 0 AS part, $3::timestamptz AS from_at,
              (SELECT count(*) FROM payout_lookups WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4${status})::int AS n
       UNION ALL
       SELECT 1, day::timestamp AT TIME ZONE 'UTC', sum(count)::int FROM payout_daily_counts
        WHERE account_id = $1 AND environment = $2 AND day >= $7::date AND day < $8::date${status}
        GROUP BY day HAVING sum(count) > 0
       UNION ALL
       SELECT 2, $5::timestamptz,
              (SELECT count(*) FROM payout_lookups WHERE account_id = $1 AND environment = $2 AND created_at >= $5 AND created_at < $6${status})::int
     ),
     placed AS (SELECT part, from_at, n, sum(n) OVER (ORDER BY part, from_at ROWS UNBOUNDED PRECEDING) - n AS rows_before FROM counted),
     seek AS (SELECT from_at, $9::int - rows_before AS skip FROM placed WHERE rows_before + n > $9::int ORDER BY part, from_at LIMIT 1),
     page AS (
       SELECT payout_lookups.* FROM payout_lookups
         JOIN (SELECT account_id, environment, id FROM payout_lookups
                WHERE account_id = $1 AND environment = $2 AND created_at >= (SELECT from_at FROM seek) AND created_at < $6${status}
                ORDER BY created_at, id LIMIT $10 OFFSET (SELECT skip FROM seek)) AS keys
         USING (account_id, environment, id)
     )
     SELECT (SELECT coalesce(sum(n), 0) FROM counted)::int AS count,
            (SELECT '[' || coalesce(string_agg(${PERIOD_ITEM_JSON}, ',' ORDER BY created_at, id), '') || ']' FROM page) AS data`;
}

export function periodPageValues(tenant: Tenant, query: PeriodPageQuery): unknown[] {
  const spans = periodSpans(query);
  return [
    tenant.accountId,
    tenant.environment,
    ...spans.before,
    ...spans.after,
    isoUtc(spans.firstDay).slice(0, 10),
    isoUtc(spans.endDay).slice(0, 10),
    (query.page - 1) * query.size,
    query.size,
    ...(query.status !== undefined ? [query.status] : []),
  ];
}

/** 4.10: a customer's whole history in the tenant, oldest first. */
export async function customerPayouts(db: EntityManager, tenant: Tenant, documentNumber: string): Promise<PayoutRecordData[]> {
  const rows = await prepared<PayoutRow>(
    db,
    'payout-customer',
    `SELECT ${SELECTED} FROM payout_lookups WHERE account_id = $1 AND environment = $2 AND document_number = $3 ORDER BY created_at, id`,
    [tenant.accountId, tenant.environment, documentNumber],
  );
  return rows.map(recordOf);
}

/** The CSV's columns, in the spec's order. */
export const CSV_COLUMNS = [
  'id',
  'transaction_id',
  'name',
  'document_number',
  'document_type',
  'currency',
  'amount',
  'status',
  'bank_type',
  'bank_name',
  'bank_code',
  'account_agency',
  'account_number',
  'webhook',
  'created_at',
  'paid_at',
  'e2e',
  'psp_id',
  'provider',
] as const;

/** The free-text columns, always double-quoted (the spec: "text fields that may contain spaces or punctuation"). */
const QUOTED = ['transaction_id', 'name', 'bank_name', 'webhook'];

/**
 * A text column as the CSV shows it: a value starting with a character that makes a spreadsheet read the cell as a
 * formula (`=`, `+`, `-`, `@`, tab, carriage return: OWASP's "CSV Injection") gets a single quote in front, which
 * spreadsheets read as "this is text" (OWASP's advice); any other value, and a null, as it is. Only text columns pass
 * through here: id, amount and status are numbers and stay as they are.
 */
const csvText = (column: string) => `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || ${column} ELSE ${column} END`;

/**
 * 4.11 as one COPY statement: PostgreSQL writes the CSV (RFC 4180: a quote inside a field is doubled, a field with a
 * comma, quote or line break is quoted) and the rows stream out as they are read, never held whole. Every text cell
 * that a spreadsheet would run as a formula is neutralized here (csvText), the one place the CSV is written. COPY takes
 * no bind parameters, so the values are quoted by the caller's `literal` (pg's escapeLiteral).
 */
export function periodCsvCopy(tenant: Tenant, period: Period, literal: (value: string) => string): string {
  const text = (column: string) => `${csvText(column)} AS ${column}`;
  const select = `SELECT id, ${text('transaction_id')}, ${text('name')}, ${text('document_number')}, ${text('document_type')}, 'BRL' AS currency,
      to_char(amount_centavos / 100.0, 'FM9999999999990.00') AS amount, status, 'PIX' AS bank_type, ${text('bank_name')}, ${text('bank_code')},
      ${text('account_agency')}, ${text('account_number')}, ${text('webhook')},
      to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS created_at, to_char(paid_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS paid_at,
      ${text('e2e')}, ${text('psp_id')}, ${text('provider')}
    FROM payout_lookups
    WHERE account_id = ${literal(tenant.accountId)} AND environment = ${literal(tenant.environment)}
      AND created_at >= ${literal(period.start.toISOString())} AND created_at < ${literal(period.endBefore.toISOString())}
    ORDER BY created_at, id`;
  return `COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE (${QUOTED.join(', ')}))`;
}
