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
 * processed-messages table needed), and the table can be rebuilt from the topic alone. One statement per batch:
 * a replay of the whole topic goes at thousands of events a second.
 */
export async function applyPayoutEvents(db: EntityManager, events: readonly EventEnvelope[]): Promise<void> {
  const latest = new Map<string, EventEnvelope>();
  for (const event of events) {
    if (!PAYOUT_EVENT_TYPES.includes(event.type)) continue;
    const key = `${event.tenant.account_id}:${event.tenant.environment}:${(event.data as PayoutCreatedData).payout.id}`;
    const seen = latest.get(key);
    if (!seen || seen.version < event.version) latest.set(key, event); // one statement may not touch a row twice
  }
  const all = [...latest.values()];
  for (let from = 0; from < all.length; from += ROWS_PER_STATEMENT) await upsert(db, all.slice(from, from + ROWS_PER_STATEMENT));
}

/** PostgreSQL takes at most 65,535 parameters per statement: 23 per row. */
const ROWS_PER_STATEMENT = 1000;

async function upsert(db: EntityManager, latest: EventEnvelope[]): Promise<void> {
  const values: unknown[] = [];
  const rows = latest.map((event) => {
    const p = (event.data as PayoutCreatedData | PayoutStatusChangedData).payout;
    const row = [
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
    const first = values.length;
    values.push(...row);
    return `(${row.map((_, i) => `$${first + i + 1}`).join(', ')})`;
  });
  await db.query(
    `INSERT INTO payout_lookups AS l (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}
     ON CONFLICT (account_id, environment, id) DO UPDATE SET ${UPDATED.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
     WHERE l.version < EXCLUDED.version`,
    values,
  );
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

export interface PeriodPage {
  count: number;
  payouts: PayoutRecordData[];
}

/**
 * 4.9: one page of a tenant's period, oldest first (created_at, then id: stable across pages). The count and the
 * page's keys are read from the period index alone (index-only scans, however deep the page); only the page's own
 * rows are then fetched from the table.
 */
export async function periodPage(db: EntityManager, tenant: Tenant, query: PeriodPageQuery): Promise<PeriodPage> {
  const byStatus = query.status !== undefined;
  const filter = `account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4${byStatus ? ' AND status = $5' : ''}`;
  const params: unknown[] = [tenant.accountId, tenant.environment, query.start, query.endBefore, ...(byStatus ? [query.status] : [])];
  const [limit, offset] = [`$${params.length + 1}`, `$${params.length + 2}`];
  const [counted, rows] = await Promise.all([
    prepared<{ count: number }>(
      db,
      `payout-period-count${byStatus ? '-status' : ''}`,
      `SELECT count(*)::int AS count FROM payout_lookups WHERE ${filter}`,
      params,
    ),
    prepared<PayoutRow>(
      db,
      `payout-period-page${byStatus ? '-status' : ''}`,
      `SELECT ${SELECTED} FROM payout_lookups
        JOIN (SELECT account_id, environment, id FROM payout_lookups WHERE ${filter} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}) AS page
        USING (account_id, environment, id)
       ORDER BY created_at, id`,
      [...params, query.size, (query.page - 1) * query.size],
    ),
  ]);
  return { count: counted[0].count, payouts: rows.map(recordOf) };
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

/** The columns of 4.11, in its order. */
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

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** The free-text columns, always double-quoted (4.11: "text fields that may contain spaces or punctuation"). */
const QUOTED = ['transaction_id', 'name', 'bank_name', 'webhook'];

/**
 * 4.11 as one COPY statement: PostgreSQL writes the CSV (RFC 4180: a quote inside a field is doubled, a field with a
 * comma, quote or line break is quoted) and the rows stream out as they are read, never held whole. COPY takes no
 * bind parameters, so the values are quoted by the caller's `literal` (pg's escapeLiteral).
 */
export function periodCsvCopy(tenant: Tenant, period: Period, literal: (value: string) => string): string {
  const select = `SELECT id, transaction_id, name, document_number, document_type, 'BRL' AS currency,
      to_char(amount_centavos / 100.0, 'FM9999999999990.00') AS amount, status, 'PIX' AS bank_type, bank_name, bank_code,
      account_agency, account_number, webhook,
      to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS created_at, to_char(paid_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS paid_at,
      e2e, psp_id, provider
    FROM payout_lookups
    WHERE account_id = ${literal(tenant.accountId)} AND environment = ${literal(tenant.environment)}
      AND created_at >= ${literal(period.start.toISOString())} AND created_at < ${literal(period.endBefore.toISOString())}
    ORDER BY created_at, id`;
  return `COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE (${QUOTED.join(', ')}))`;
}
