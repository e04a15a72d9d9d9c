import { EntityManager } from 'typeorm';
import { PayoutEventTypes, PayoutRecordData, PayoutStatus, Tenant } from '@pixauto/contracts';
import { Claim, claimRows, ClaimTarget, dueRowsSql, Projection, sql, SqlStatement, WORK_LEASE_MS } from '@pixauto/event-store';
import { brasiliaDate } from '@pixauto/pix';
import { releaseLimitUsage } from '../limit-usage/customer-limit-usage';
import { PayoutEvent, PayoutState } from './payout';

/**
 * The payouts row follows the stream; a payout that will not happen (rejected or cancelled) gives the unit it took of
 * its customer's daily cashout limit back (docs/decisions/limits.md), in the same statement as its event.
 */
export const projectPayout: Projection<PayoutEvent, PayoutState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const p = state.payout;
  const statements: SqlStatement[] = [
    sql(
      `INSERT INTO payouts (account_id, environment, id, transaction_id, status, record, updated_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7)
       ON CONFLICT (account_id, environment, id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, updated_at = now(), version = EXCLUDED.version`,
      [last.tenant.accountId, last.tenant.environment, p.id, p.transaction_id, p.status, JSON.stringify(p), last.version],
    ),
  ];
  const givenBack = events.some(
    (e) => e.type === PayoutEventTypes.statusChanged && (e.data.to === PayoutStatus.canceled || e.data.to === PayoutStatus.rejected),
  );
  if (givenBack)
    statements.push(releaseLimitUsage({ tenant: last.tenant, documentNumber: p.document_number, type: 'cashout', day: brasiliaDate(new Date(p.created_at)) }));
  return statements;
};

export const nextPayoutId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('payout_ids') AS id`))[0].id);

export async function findPayout(db: EntityManager, tenant: Tenant, id: number): Promise<PayoutRecordData | undefined> {
  const [row] = await db.query('SELECT record FROM payouts WHERE account_id = $1 AND environment = $2 AND id = $3', [tenant.accountId, tenant.environment, id]);
  return row?.record;
}

export async function payoutTransactionIdTaken(db: EntityManager, tenant: Tenant, transactionId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM payouts WHERE account_id = $1 AND environment = $2 AND transaction_id = $3', [
    tenant.accountId,
    tenant.environment,
    transactionId,
  ]);
  return rows.length > 0;
}

export interface UnsettledPayout {
  tenant: Tenant;
  payout: PayoutRecordData;
}

const PAYOUTS: ClaimTarget = { table: 'payouts', keys: { account_id: 'text', environment: 'text', id: 'bigint' } };

/**
 * Claims payouts in a status (0: the bank has not accepted them yet; 4: processing) untouched for at least
 * `quietForMs` of real time (`updated_at` is the database's clock, not a sandbox tenant's), oldest first, skipping
 * those another replica holds.
 */
export function claimUnsettledPayouts(
  db: EntityManager,
  status: 0 | 4,
  quietForMs: number,
  limit: number,
  leaseMs = WORK_LEASE_MS,
): Promise<Claim<UnsettledPayout>> {
  return claimRows(
    db,
    PAYOUTS,
    {
      candidates: dueRowsSql(PAYOUTS, `status = $1 AND updated_at <= now() - $2 * interval '1 millisecond'`, 'updated_at', '$3'),
      returning: 't.account_id, t.environment, t.record, t.updated_at',
      orderBy: 'updated_at',
      params: [status, quietForMs, limit],
      toItem: (row) => ({
        tenant: { accountId: row.account_id as string, environment: row.environment as Tenant['environment'] },
        payout: row.record as PayoutRecordData,
      }),
    },
    leaseMs,
  );
}

/** Whether one of the tenant's payouts was returned under this refund_id (the sandbox names returns). */
export async function payoutReturnRefundIdTaken(db: EntityManager, tenant: Tenant, refundId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM payouts WHERE account_id = $1 AND environment = $2 AND record->'returns' @> $3::jsonb LIMIT 1`, [
    tenant.accountId,
    tenant.environment,
    JSON.stringify([{ refund_id: refundId }]),
  ]);
  return rows.length > 0;
}

/** The payout the bank names (by the id its idEnvio carries), with its tenant. */
export async function findPayoutById(db: EntityManager, id: number): Promise<UnsettledPayout | undefined> {
  const [row] = await db.query('SELECT account_id, environment, record FROM payouts WHERE id = $1', [id]);
  return row && { tenant: { accountId: row.account_id, environment: row.environment }, payout: row.record };
}
