import { EntityManager } from 'typeorm';
import { Journey, Periodicity, RecurrenceResponse, RecurrenceStatus, RetryPolicy, Tenant } from '@pixauto/contracts';
import { pageWithTotal } from '@pixauto/event-store';
import { centavosToReais } from '@pixauto/pix';
import { pixCopyPasteOf, Recurrence } from '../recurrence';

// What the recurrences read model answers: a recurrence as the API shows it, the period list, the transaction_id
// check, and the recurrence the bank names in a notification. Its rows are written by recurrences.projection.ts.

/** A recurrences row as read (dates as YYYY-MM-DD), or as the recurrence's state is written. */
export interface RecurrenceRow {
  recurrence_id: string;
  transaction_id: string;
  status: RecurrenceStatus;
  journey: Journey;
  debtor_document_number: string;
  debtor_name: string;
  start_date: string;
  end_date: string | null;
  periodicity: Periodicity;
  /** bigint: read as a string. */
  amount_centavos: string | number;
  retry_policy: RetryPolicy;
  business_day_adjust: boolean;
  charge_lead_days: number;
  webhook: string | null;
  pix_copy_paste: string | null;
  activation_charge_id: string | null;
  activation_amount_centavos: string | number | null;
}

const COLUMNS = `recurrence_id, transaction_id, status, journey, debtor_document_number, debtor_name, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, periodicity, amount_centavos, retry_policy, business_day_adjust, charge_lead_days, webhook,
  pix_copy_paste, activation_charge_id, activation_amount_centavos`;

/**
 * The recurrence object without its QR image (the caller adds it where the spec shows one): what GET and the lists
 * answer, the webhooks send and every recurrence event carries.
 */
export function recurrenceResponse(row: RecurrenceRow): RecurrenceResponse {
  return {
    recurrence_id: row.recurrence_id,
    status: row.status,
    contract: row.transaction_id,
    debtor: { document_number: row.debtor_document_number, name: row.debtor_name },
    schedule: { start_date: row.start_date, end_date: row.end_date, periodicity: row.periodicity },
    amount: centavosToReais(Number(row.amount_centavos)),
    retry_policy: row.retry_policy,
    business_day_adjust: row.business_day_adjust,
    charge_lead_days: row.charge_lead_days,
    journey: row.journey,
    pix_copy_paste: row.pix_copy_paste,
    webhook: row.webhook,
    ...(row.activation_charge_id !== null && {
      activation: { charge_id: row.activation_charge_id, amount: centavosToReais(Number(row.activation_amount_centavos)) },
    }),
  };
}

/** The row the projection writes for the recurrence's state. */
export function recurrenceRowOf(state: Recurrence): RecurrenceRow {
  const r = state.data;
  return {
    recurrence_id: r.recurrence_id,
    transaction_id: r.transaction_id,
    status: state.status,
    journey: state.journey,
    debtor_document_number: r.debtor.document_number,
    debtor_name: r.debtor.name,
    start_date: r.schedule.start_date,
    end_date: r.schedule.end_date,
    periodicity: r.schedule.periodicity,
    amount_centavos: r.amount_centavos,
    retry_policy: r.retry_policy,
    business_day_adjust: r.business_day_adjust,
    charge_lead_days: r.charge_lead_days,
    webhook: r.webhook,
    pix_copy_paste: pixCopyPasteOf(state),
    activation_charge_id: r.activation?.charge_id ?? null,
    activation_amount_centavos: r.activation?.amount_centavos ?? null,
  };
}

export async function findRecurrence(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<RecurrenceResponse | undefined> {
  const [row]: RecurrenceRow[] = await db.query(`SELECT ${COLUMNS} FROM recurrences WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3`, [
    tenant.accountId,
    tenant.environment,
    recurrenceId,
  ]);
  return row && recurrenceResponse(row);
}

export async function transactionIdTaken(db: EntityManager, tenant: Tenant, transactionId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM recurrences WHERE account_id = $1 AND environment = $2 AND transaction_id = $3', [
    tenant.accountId,
    tenant.environment,
    transactionId,
  ]);
  return rows.length > 0;
}

/** Newest first, created within [start, end]. */
export async function listRecurrences(
  db: EntityManager,
  tenant: Tenant,
  query: { start: string; end: string; page: number; page_size: number },
): Promise<{ total: number; recurrences: RecurrenceResponse[] }> {
  const where = 'account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at <= $4';
  const params = [tenant.accountId, tenant.environment, query.start, query.end];
  const { total, rows } = await pageWithTotal<RecurrenceRow>(
    db,
    { table: 'recurrences', columns: COLUMNS, where, params, orderBy: 'created_at DESC, recurrence_id' },
    query,
  );
  return { total, recurrences: rows.map(recurrenceResponse) };
}

/** The recurrence the bank knows as idRec, for its notifications. */
export async function findByBankId(
  db: EntityManager,
  environment: Tenant['environment'],
  idRec: string,
): Promise<{ tenant: Tenant; recurrenceId: string } | undefined> {
  const [row] = await db.query('SELECT account_id, recurrence_id FROM recurrences WHERE environment = $1 AND bank_id_rec = $2', [environment, idRec]);
  return row && { tenant: { accountId: row.account_id, environment }, recurrenceId: row.recurrence_id };
}
