import { EntityManager } from 'typeorm';
import { ChargeEventTypes, ChargeResponse, ChargeStatus, ChargeType, Tenant } from '@pixauto/contracts';
import { pageWithTotal, RecordedEvent, rowsSql, SqlStatement } from '@pixauto/event-store';
import { brasiliaStartOfDay, centavosToReais } from '@pixauto/pix';
import { Charge } from '../charge';
import { Recurrence, RecurrenceEvent } from '../recurrence';

const CHARGE_EVENT_TYPES: readonly string[] = Object.values(ChargeEventTypes);

/** One upsert per charge the events touched, from the state they lead to (one statement per row per append). */
export function chargeStatements(events: RecordedEvent<RecurrenceEvent>[], state: Recurrence): SqlStatement[] {
  const last = events[events.length - 1];
  const touched = new Set(events.filter((e) => CHARGE_EVENT_TYPES.includes(e.type)).map((e) => (e.data as { charge_id: string }).charge_id));
  return state.charges
    .filter((charge) => touched.has(charge.charge_id))
    .map((c) => ({ c, row: chargeRowOf(state.data.recurrence_id, c, last.occurredAt) }))
    .map(({ c, row }) =>
      rowsSql(
        `INSERT INTO charges AS c (account_id, environment, charge_id, recurrence_id, type, cycle, nominal_date, due_date, amount_centavos, status,
           retries, attempt_date, attempt_at, txid, created_at, paid_at, version)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::date[], $8::date[], $9::bigint[], $10::text[],
           $11::int[], $12::date[], $13::timestamptz[], $14::text[], $15::timestamptz[], $16::timestamptz[], $17::int[])
         ON CONFLICT (account_id, environment, charge_id) DO UPDATE SET
           due_date = EXCLUDED.due_date, status = EXCLUDED.status, retries = EXCLUDED.retries, attempt_date = EXCLUDED.attempt_date,
           attempt_at = EXCLUDED.attempt_at, txid = EXCLUDED.txid, paid_at = EXCLUDED.paid_at, version = EXCLUDED.version
         WHERE c.version < EXCLUDED.version`,
        [
          last.tenant.accountId,
          last.tenant.environment,
          row.charge_id,
          row.recurrence_id,
          row.type,
          c.cycle,
          c.nominal_date,
          row.due_date,
          row.amount_centavos,
          row.status,
          row.retries,
          c.attempt_date,
          brasiliaStartOfDay(c.attempt_date),
          c.txid,
          row.created_at,
          row.paid_at,
          last.version,
        ],
      ),
    );
}

/** A charges row as read, or as a charge of the recurrence's state is written. */
export interface ChargeRow {
  charge_id: string;
  recurrence_id: string;
  type: ChargeType;
  /** bigint: read as a string. */
  amount_centavos: string | number;
  due_date: string;
  status: ChargeStatus;
  retries: number;
  created_at: Date;
  paid_at: Date | null;
}

const COLUMNS = `charge_id, recurrence_id, type, amount_centavos, to_char(due_date, 'YYYY-MM-DD') AS due_date, status, retries, created_at, paid_at`;

/** A charge as the merchant reads it: what GET answers, the webhooks send and every charge event carries. */
export const chargeResponse = (row: ChargeRow): ChargeResponse => ({
  charge_id: row.charge_id,
  recurrence_id: row.recurrence_id,
  type: row.type,
  amount: centavosToReais(Number(row.amount_centavos)),
  due_date: row.due_date,
  status: row.status,
  retries: row.retries,
  created_at: row.created_at.toISOString(),
  paid_at: row.paid_at?.toISOString() ?? null,
});

/** The row of a charge of a recurrence's state; `createdAt`, when the event that created it was recorded. */
export const chargeRowOf = (recurrenceId: string, c: Charge, createdAt: Date): ChargeRow => ({
  charge_id: c.charge_id,
  recurrence_id: recurrenceId,
  type: c.type,
  amount_centavos: c.amount_centavos,
  due_date: c.due_date,
  status: c.status,
  retries: c.retries,
  created_at: createdAt,
  paid_at: c.paid_at === null ? null : new Date(c.paid_at),
});

export async function findCharge(db: EntityManager, tenant: Tenant, chargeId: string): Promise<ChargeResponse | undefined> {
  const [row]: ChargeRow[] = await db.query(`SELECT ${COLUMNS} FROM charges WHERE account_id = $1 AND environment = $2 AND charge_id = $3`, [
    tenant.accountId,
    tenant.environment,
    chargeId,
  ]);
  return row && chargeResponse(row);
}

/** A recurrence's charges by due date, the activation first on a tie. */
export async function listCharges(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<ChargeResponse[]> {
  const rows: ChargeRow[] = await db.query(
    `SELECT ${COLUMNS} FROM charges WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3 ORDER BY due_date, cycle NULLS FIRST`,
    [tenant.accountId, tenant.environment, recurrenceId],
  );
  return rows.map(chargeResponse);
}

/** The charges of every recurrence of the account due from one day to another (both included), by due date, one page. */
export async function listChargesDue(
  db: EntityManager,
  tenant: Tenant,
  query: { due_from: string; due_to: string; status: ChargeStatus | undefined; page: number; page_size: number },
): Promise<{ total: number; charges: ChargeResponse[] }> {
  const params: unknown[] = [tenant.accountId, tenant.environment, query.due_from, query.due_to];
  let where = 'account_id = $1 AND environment = $2 AND due_date >= $3 AND due_date <= $4';
  if (query.status) {
    params.push(query.status);
    where += ` AND status = $${params.length}`;
  }
  const { total, rows } = await pageWithTotal<ChargeRow>(
    db,
    { table: 'charges', columns: COLUMNS, where, params, orderBy: 'due_date, recurrence_id, cycle NULLS FIRST' },
    query,
  );
  return { total, charges: rows.map(chargeResponse) };
}

/** The charge the bank knows by this txid (its current debit), for the bank's notifications. */
export async function findChargeByTxid(
  db: EntityManager,
  environment: Tenant['environment'],
  txid: string,
): Promise<{ tenant: Tenant; recurrenceId: string; chargeId: string } | undefined> {
  const [row] = await db.query('SELECT account_id, recurrence_id, charge_id FROM charges WHERE environment = $1 AND txid = $2', [environment, txid]);
  return row && { tenant: { accountId: row.account_id, environment }, recurrenceId: row.recurrence_id, chargeId: row.charge_id };
}
