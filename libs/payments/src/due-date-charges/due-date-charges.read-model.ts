import { EntityManager } from 'typeorm';
import { DueDateChargeRecordData, Environment, ListDueDateChargesQuery, Tenant } from '@pixauto/contracts';
import { Claim, claimRows, ClaimTarget, dueRowsSql, pageWithTotal, Projection, sql, WORK_LEASE_MS } from '@pixauto/event-store';
import { lastPayableDay } from '@pixauto/pix';
import { tenantNowSql } from '@pixauto/runtime';
import { DueDateChargeEvent, DueDateChargeState } from './due-date-charge';

/** The due_date_charges row follows the stream: the whole record after each event. */
export const projectDueDateCharge: Projection<DueDateChargeEvent, DueDateChargeState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const c = state.charge;
  return [
    sql(
      `INSERT INTO due_date_charges (account_id, environment, id, transaction_id, status, last_payable_day, txid, created_at, record, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (account_id, environment, id) DO UPDATE
         SET status = EXCLUDED.status, last_payable_day = EXCLUDED.last_payable_day, record = EXCLUDED.record, version = EXCLUDED.version`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        c.id,
        c.transaction_id,
        c.status,
        lastPayableDay(c),
        c.bank.txid,
        c.created_at,
        JSON.stringify(c),
        last.version,
      ],
    ),
  ];
};

export const nextDueDateChargeId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('due_date_charge_ids') AS id`))[0].id);

/** A charge's tenant, stream key and bank charge, for work that knows it by another name. */
export interface DueDateChargeRef {
  tenant: Tenant;
  id: number;
  transactionId: string;
  txid: string;
}

interface RefRow {
  account_id: string;
  environment: Environment;
  id: string;
  transaction_id: string;
  txid: string;
}

const refOf = (row: RefRow): DueDateChargeRef => ({
  tenant: { accountId: row.account_id, environment: row.environment },
  id: Number(row.id),
  transactionId: row.transaction_id,
  txid: row.txid,
});

export async function findDueDateCharge(
  db: EntityManager,
  tenant: Tenant,
  by: { id?: number; transaction_id?: string },
): Promise<DueDateChargeRecordData | undefined> {
  const [row] = await db.query(
    `SELECT record FROM due_date_charges WHERE account_id = $1 AND environment = $2 AND ${by.id !== undefined ? 'id = $3' : 'transaction_id = $3'}`,
    [tenant.accountId, tenant.environment, by.id ?? by.transaction_id],
  );
  return row?.record;
}

export async function dueDateChargeTransactionIdTaken(db: EntityManager, tenant: Tenant, transactionId: string): Promise<boolean> {
  return (await findDueDateCharge(db, tenant, { transaction_id: transactionId })) !== undefined;
}

/** The charge the bank names by its txid, if it is ours in that environment. */
export async function findDueDateChargeByTxid(db: EntityManager, environment: Environment, txid: string): Promise<DueDateChargeRef | undefined> {
  const [row] = await db.query('SELECT account_id, environment, id, transaction_id, txid FROM due_date_charges WHERE txid = $1 AND environment = $2', [
    txid,
    environment,
  ]);
  return row && refOf(row);
}

/** One page of the tenant's charges created in [start, end), of one status or all, newest first (ties by id), with how many match. */
export async function listDueDateCharges(
  db: EntityManager,
  tenant: Tenant,
  query: ListDueDateChargesQuery,
): Promise<{ total: number; charges: DueDateChargeRecordData[] }> {
  const where = `account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4${query.status ? ' AND status = $5' : ''}`;
  const params: unknown[] = [tenant.accountId, tenant.environment, query.start, query.end, ...(query.status ? [query.status] : [])];
  const { total, rows } = await pageWithTotal<{ record: DueDateChargeRecordData }>(
    db,
    { table: 'due_date_charges', columns: 'record', where, params, orderBy: 'created_at DESC, id DESC' },
    query,
  );
  return { total, charges: rows.map((r) => r.record) };
}

const DUE_DATE_CHARGES: ClaimTarget = { table: 'due_date_charges', keys: { account_id: 'text', environment: 'text', id: 'bigint' } };

/**
 * Claims PENDING charges whose last payable day is before their tenant's Brasília today (the sandbox's follows its
 * test clock), oldest first, skipping those another replica holds.
 */
export function claimDueDateChargeExpiries(db: EntityManager, now: Date, limit: number, leaseMs = WORK_LEASE_MS): Promise<Claim<DueDateChargeRef>> {
  const today = `(${tenantNowSql('$1', 'due_date_charges.account_id', 'due_date_charges.environment')} AT TIME ZONE 'America/Sao_Paulo')::date`;
  return claimRows(
    db,
    DUE_DATE_CHARGES,
    {
      candidates: dueRowsSql(DUE_DATE_CHARGES, `status = 'PENDING' AND last_payable_day < ${today}`, 'last_payable_day', '$2'),
      returning: 't.account_id, t.environment, t.id, t.transaction_id, t.txid, t.last_payable_day',
      orderBy: 'last_payable_day',
      params: [now, limit],
      toItem: (row) => refOf(row as unknown as RefRow),
    },
    leaseMs,
  );
}
