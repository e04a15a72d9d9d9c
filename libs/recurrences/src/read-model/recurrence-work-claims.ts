import { EntityManager } from 'typeorm';
import { Tenant } from '@pixauto/contracts';
import { Claim, ClaimedRow, claimRows, ClaimTarget, dueRowsSql, UNCLAIMED, WORK_LEASE_MS } from '@pixauto/event-store';
import { tenantNowSql } from '@pixauto/runtime';

// The recurrence-service's periodic work, claimed row by row so replicas share it (docs/decisions/background-work.md):
// activations past their deadline, cycle charges due to be created, sandbox debits whose day has come.

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
