import { EntityManager } from 'typeorm';
import { ChargeEventTypes, Journey, Periodicity, RecurrenceResponse, RecurrenceStatus, RetryPolicy, Tenant } from '@pixauto/contracts';
import { Claim, ClaimedRow, claimRows, ClaimTarget, dueRowsSql, pageWithTotal, Projection, rowsSql, UNCLAIMED, WORK_LEASE_MS } from '@pixauto/event-store';
import { brasiliaStartOfDay, centavosToReais } from '@pixauto/pix';
import { tenantNowSql } from '@pixauto/runtime';
import { nextCycleOf, pixCopyPasteOf, Recurrence, RecurrenceEvent, RecurrenceState } from '../recurrence';
import { chargeStatements } from './charges.projection';

/**
 * When the next cycle's charge is due to be created (the start of its creation day in Brasília), or null when no
 * charge is to come: not APPROVED, or the schedule has ended. Cycles due before the approval day are never charged.
 */
export function nextChargeAt(r: Recurrence): Date | null {
  if (r.status !== 'APPROVED') return null;
  const next = nextCycleOf(r);
  return next && brasiliaStartOfDay(next.creation_date);
}

const CHARGE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(ChargeEventTypes));

/**
 * The recurrences read model: one row per recurrence, upserted from the state the new events lead to, and its
 * charge_schedule row (when the next charge is due). Charge events change none of the recurrence's own columns, so
 * an append of charges alone (the scheduler's) writes only the schedule's narrow row, not the wide recurrence row
 * with its five indexes.
 */
export const projectRecurrence: Projection<RecurrenceEvent, RecurrenceState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const schedule = rowsSql(
    `INSERT INTO charge_schedule AS s (account_id, environment, recurrence_id, next_charge_at, version)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[])
       ON CONFLICT (account_id, environment, recurrence_id) DO UPDATE SET next_charge_at = EXCLUDED.next_charge_at, version = EXCLUDED.version
       WHERE s.version < EXCLUDED.version`,
    [last.tenant.accountId, last.tenant.environment, state.data.recurrence_id, nextChargeAt(state), last.version],
  );
  if (events.every((event) => CHARGE_EVENT_TYPES.has(event.type))) return [schedule, ...chargeStatements(events, state)];
  const r = state.data;
  const pixCopyPaste = pixCopyPasteOf(state);
  return [
    rowsSql(
      `INSERT INTO recurrences AS r (account_id, environment, recurrence_id, transaction_id, status, journey, debtor_document_number,
         debtor_name, start_date, end_date, periodicity, amount_centavos, retry_policy, business_day_adjust, charge_lead_days, webhook,
         pix_copy_paste, activation_charge_id, activation_amount_centavos, bank_id_rec, version, created_at, updated_at,
         activation_expires_at, activation_expired)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::date[], $10::date[],
         $11::text[], $12::bigint[], $13::text[], $14::boolean[], $15::int[], $16::text[], $17::text[], $18::text[], $19::bigint[], $20::text[],
         $21::int[], $22::timestamptz[], $23::timestamptz[], $24::timestamptz[], $25::boolean[])
       ON CONFLICT (account_id, environment, recurrence_id) DO UPDATE SET
         status = EXCLUDED.status, journey = EXCLUDED.journey, debtor_name = EXCLUDED.debtor_name, start_date = EXCLUDED.start_date,
         business_day_adjust = EXCLUDED.business_day_adjust, charge_lead_days = EXCLUDED.charge_lead_days, webhook = EXCLUDED.webhook,
         pix_copy_paste = EXCLUDED.pix_copy_paste, activation_expired = EXCLUDED.activation_expired, version = EXCLUDED.version,
         updated_at = EXCLUDED.updated_at
       WHERE r.version < EXCLUDED.version`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        r.recurrence_id,
        r.transaction_id,
        state.status,
        state.journey,
        r.debtor.document_number,
        r.debtor.name,
        r.schedule.start_date,
        r.schedule.end_date,
        r.schedule.periodicity,
        r.amount_centavos,
        r.retry_policy,
        r.business_day_adjust,
        r.charge_lead_days,
        r.webhook,
        pixCopyPaste,
        r.activation?.charge_id ?? null,
        r.activation?.amount_centavos ?? null,
        r.bank.id_rec,
        last.version,
        last.occurredAt,
        last.occurredAt,
        r.activation?.expires_at ?? null,
        state.activationExpired,
      ],
    ),
    schedule,
    ...chargeStatements(events, state),
  ];
};

interface RecurrenceRow {
  recurrence_id: string;
  transaction_id: string;
  status: RecurrenceStatus;
  journey: Journey;
  debtor_document_number: string;
  debtor_name: string;
  start_date: string;
  end_date: string | null;
  periodicity: Periodicity;
  amount_centavos: string;
  retry_policy: RetryPolicy;
  business_day_adjust: boolean;
  charge_lead_days: number;
  webhook: string | null;
  pix_copy_paste: string | null;
  activation_charge_id: string | null;
  activation_amount_centavos: string | null;
}

const COLUMNS = `recurrence_id, transaction_id, status, journey, debtor_document_number, debtor_name, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, periodicity, amount_centavos, retry_policy, business_day_adjust, charge_lead_days, webhook,
  pix_copy_paste, activation_charge_id, activation_amount_centavos`;

/** The recurrence object without its QR image (the caller adds it where the spec shows one). */
function toResponse(row: RecurrenceRow): RecurrenceResponse {
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

export async function findRecurrence(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<RecurrenceResponse | undefined> {
  const [row]: RecurrenceRow[] = await db.query(`SELECT ${COLUMNS} FROM recurrences WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3`, [
    tenant.accountId,
    tenant.environment,
    recurrenceId,
  ]);
  return row && toResponse(row);
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
  return { total, recurrences: rows.map(toResponse) };
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

const tenantRecurrence = (row: ClaimedRow) => ({
  tenant: { accountId: row.account_id as string, environment: row.environment as Tenant['environment'] },
  recurrenceId: row.recurrence_id as string,
});

const RECURRENCE_KEYS = { account_id: 'text', environment: 'text', recurrence_id: 'text' } as const;
const RECURRENCES: ClaimTarget = { table: 'recurrences', keys: RECURRENCE_KEYS };
const CHARGE_SCHEDULE: ClaimTarget = { table: 'charge_schedule', keys: RECURRENCE_KEYS };
const CHARGES: ClaimTarget = { table: 'charges', keys: { account_id: 'text', environment: 'text', charge_id: 'text' } };

/**
 * Claims journey 3 recurrences still awaiting the payer whose activation payment stopped being payable at their
 * tenant's now (another replica's claims skipped).
 */
export function claimDueActivations(db: EntityManager, now: Date, leaseMs = WORK_LEASE_MS): Promise<Claim<{ tenant: Tenant; recurrenceId: string }>> {
  return claimRows(
    db,
    RECURRENCES,
    {
      candidates: dueRowsSql(
        RECURRENCES,
        `status = 'CREATED' AND NOT activation_expired AND activation_expires_at IS NOT NULL
          AND activation_expires_at <= ${tenantNowSql('$1', 'recurrences.account_id', 'recurrences.environment')}`,
        'activation_expires_at',
        '200',
      ),
      returning: 't.account_id, t.environment, t.recurrence_id, t.activation_expires_at',
      orderBy: 'activation_expires_at',
      params: [now],
      toItem: tenantRecurrence,
    },
    leaseMs,
  );
}

/** Where a scheduler run has got to in the due recurrences: the last one claimed, in claiming order. */
export interface DueCursor {
  /** next_charge_at as PostgreSQL wrote it (full precision) */
  at: string;
  recurrenceId: string;
}

/**
 * Claims APPROVED recurrences whose next cycle charge is due to be created at their tenant's now, the most overdue
 * first, after `cursor` (a run claims its way through them, so two claims of one run never meet), skipping those
 * another replica holds. Production is one range of the index; sandbox rows are bounded by the furthest test clock
 * and filtered by their own.
 */
export function claimDueChargeCreations(
  db: EntityManager,
  now: Date,
  limit: number,
  cursor?: DueCursor,
  leaseMs = WORK_LEASE_MS,
): Promise<Claim<{ tenant: Tenant; recurrenceId: string; cursor: DueCursor }>> {
  return claimRows(
    db,
    CHARGE_SCHEDULE,
    {
      // Each range locked in a subquery of its own (PostgreSQL allows no FOR UPDATE directly under UNION).
      candidates: `SELECT account_id, environment, recurrence_id FROM (
        SELECT * FROM (SELECT account_id, environment, recurrence_id, next_charge_at FROM charge_schedule
          WHERE environment = 'production' AND next_charge_at IS NOT NULL AND next_charge_at <= $1
            AND (next_charge_at, recurrence_id) > ($3::timestamptz, $4::text) AND ${UNCLAIMED}
          ORDER BY next_charge_at, recurrence_id LIMIT $2 FOR UPDATE SKIP LOCKED) AS production
        UNION ALL
        SELECT * FROM (SELECT account_id, environment, recurrence_id, next_charge_at FROM charge_schedule
          WHERE environment = 'sandbox' AND next_charge_at IS NOT NULL
            AND next_charge_at <= $1::timestamptz + (SELECT COALESCE(max(offset_ms), 0) FROM tenant_clocks) * interval '1 millisecond'
            AND next_charge_at <= ${tenantNowSql('$1', 'charge_schedule.account_id', 'charge_schedule.environment')}
            AND (next_charge_at, recurrence_id) > ($3::timestamptz, $4::text) AND ${UNCLAIMED}
          ORDER BY next_charge_at, recurrence_id LIMIT $2 FOR UPDATE SKIP LOCKED) AS sandbox
      ) AS due ORDER BY next_charge_at, recurrence_id LIMIT $2`,
      returning: 't.account_id, t.environment, t.recurrence_id, t.next_charge_at, t.next_charge_at::text AS cursor_at',
      orderBy: 'next_charge_at, recurrence_id',
      params: [now, limit, cursor?.at ?? '-infinity', cursor?.recurrenceId ?? ''],
      toItem: (row) => ({ ...tenantRecurrence(row), cursor: { at: row.cursor_at as string, recurrenceId: row.recurrence_id as string } }),
    },
    leaseMs,
  );
}

/**
 * The scheduler's own note when the next charge turned out not to be due yet (a cycle skipped in production because
 * its date passed): not a domain fact, only when to look again. Ignored if an event changed the row meanwhile.
 */
export async function postponeNextCharge(db: EntityManager, tenant: Tenant, recurrenceId: string, version: number, at: Date | null): Promise<void> {
  await db.query('UPDATE charge_schedule SET next_charge_at = $5 WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3 AND version = $4', [
    tenant.accountId,
    tenant.environment,
    recurrenceId,
    version,
    at,
  ]);
}

/** Claims sandbox cycle charges whose pending debit attempt's day has come on their tenant's test clock. */
export function claimDueSandboxAttempts(
  db: EntityManager,
  now: Date,
  limit: number,
  leaseMs = WORK_LEASE_MS,
): Promise<Claim<{ tenant: Tenant; recurrenceId: string; chargeId: string; txid: string; attemptAt: Date }>> {
  return claimRows(
    db,
    CHARGES,
    {
      candidates: dueRowsSql(
        CHARGES,
        `status = 'SCHEDULED' AND type = 'cycle' AND environment = 'sandbox' AND attempt_at <= ${tenantNowSql('$1', 'charges.account_id', 'charges.environment')}`,
        'attempt_at',
        '$2',
      ),
      returning: 't.account_id, t.environment, t.recurrence_id, t.charge_id, t.txid, t.attempt_at',
      orderBy: 'attempt_at',
      params: [now, limit],
      toItem: (row) => ({
        ...tenantRecurrence(row),
        chargeId: row.charge_id as string,
        txid: row.txid as string,
        attemptAt: row.attempt_at as Date,
      }),
    },
    leaseMs,
  );
}
