import { EntityManager } from 'typeorm';
import { Environment, ListRefundsQuery, PixChargeEventTypes, PixChargeRefundData, RefundResponse, RefundStatus, Tenant } from '@pixauto/contracts';
import { pageWithTotal, RecordedEvent, sql, SqlStatement } from '@pixauto/event-store';
import { centavosToReais, isoUtc } from '@pixauto/pix';
import { tenantNowSql } from '@pixauto/runtime';

/** A refund's first look at the bank comes this soon after it is asked for (a PUT lost to a crash is sent again). */
const FIRST_CHECK = "interval '2 seconds'";

const REFUND_EVENT_TYPES: readonly string[] = [PixChargeEventTypes.refundRequested, PixChargeEventTypes.refunded, PixChargeEventTypes.refundFailed];

/** The pix_refunds rows of refund events (one per event, in order): written whole at the request, its outcome after. */
export function projectRefundEvents(events: readonly RecordedEvent[]): SqlStatement[] {
  return events
    .filter((event) => REFUND_EVENT_TYPES.includes(event.type))
    .map((event) => {
      const { charge, refund } = event.data as PixChargeRefundData;
      return sql(
        `INSERT INTO pix_refunds (id, account_id, environment, refund_id, charge_id, transaction_id, e2e_id, bank_id, amount_centavos, status,
                                  rtr_id, failure_reason, created_at, refunded_at, next_check_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now() + ${FIRST_CHECK}, $15)
         ON CONFLICT (id) DO UPDATE
           SET status = EXCLUDED.status, rtr_id = EXCLUDED.rtr_id, failure_reason = EXCLUDED.failure_reason, refunded_at = EXCLUDED.refunded_at,
               next_check_at = CASE WHEN EXCLUDED.status = 'PROCESSING' THEN pix_refunds.next_check_at END, version = EXCLUDED.version`,
        [
          refund.id,
          event.tenant.accountId,
          event.tenant.environment,
          refund.refund_id,
          charge.id,
          charge.transaction_id,
          charge.e2e_id,
          refund.bank_id,
          refund.amount_centavos,
          refund.status,
          refund.rtr_id,
          refund.failure_reason,
          refund.created_at,
          refund.refunded_at,
          event.version,
        ],
      );
    });
}

export const nextRefundId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('pix_refund_ids') AS id`))[0].id);

/** A refund's tenant, its charge's stream key and its names at the bank, for work that knows it by another name. */
export interface RefundRef {
  tenant: Tenant;
  id: number;
  chargeTransactionId: string;
  e2eId: string;
  bankId: string;
  /** Sandbox: its 60 seconds have passed on the tenant's test clock, so the bank liquidates it now. */
  settleDue: boolean;
}

interface RefundRow {
  id: string;
  account_id: string;
  environment: Environment;
  transaction_id: string;
  e2e_id: string;
  bank_id: string;
  settle_due?: boolean;
}

const refOf = (row: RefundRow): RefundRef => ({
  tenant: { accountId: row.account_id, environment: row.environment },
  id: Number(row.id),
  chargeTransactionId: row.transaction_id,
  e2eId: row.e2e_id,
  bankId: row.bank_id,
  settleDue: row.settle_due === true,
});

const REF_COLUMNS = 'id, account_id, environment, transaction_id, e2e_id, bank_id';

export async function findRefundById(db: EntityManager, tenant: Tenant, id: number): Promise<RefundRef | undefined> {
  const [row] = await db.query(`SELECT ${REF_COLUMNS} FROM pix_refunds WHERE account_id = $1 AND environment = $2 AND id = $3`, [
    tenant.accountId,
    tenant.environment,
    id,
  ]);
  return row && refOf(row);
}

/** The refund the bank names (its Pix and its id), if it is ours in that environment. */
export async function findRefundAtBank(db: EntityManager, environment: Environment, e2eId: string, bankId: string): Promise<RefundRef | undefined> {
  const [row] = await db.query(`SELECT ${REF_COLUMNS} FROM pix_refunds WHERE e2e_id = $1 AND bank_id = $2 AND environment = $3`, [e2eId, bankId, environment]);
  return row && refOf(row);
}

/** A first look before the append: whether a refund that did not fail has this refund_id in the tenant (the unique index settles races). */
export async function refundIdTaken(db: EntityManager, tenant: Tenant, refundId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM pix_refunds WHERE account_id = $1 AND environment = $2 AND refund_id = $3 AND status <> 'FAILED'`, [
    tenant.accountId,
    tenant.environment,
    refundId,
  ]);
  return rows.length > 0;
}

const RESPONSE_COLUMNS = 'id, refund_id, amount_centavos, status, charge_id, transaction_id, created_at, refunded_at';

/** The refund as the API shows it. */
export async function findRefund(db: EntityManager, tenant: Tenant, id: number): Promise<RefundResponse | undefined> {
  const [row] = await db.query(`SELECT ${RESPONSE_COLUMNS} FROM pix_refunds WHERE account_id = $1 AND environment = $2 AND id = $3`, [
    tenant.accountId,
    tenant.environment,
    id,
  ]);
  return row && responseOf(row);
}

/**
 * One page of the tenant's refunds asked for in [start, end), newest first (ties by id), with how many match in all:
 * both read the pix_refunds_created index's range of the period. Refunds of Pix charges only: this table holds no
 * payout returns (those are on their payouts).
 */
export async function listRefunds(db: EntityManager, tenant: Tenant, query: ListRefundsQuery): Promise<{ total: number; refunds: RefundResponse[] }> {
  const where = 'account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4';
  const params = [tenant.accountId, tenant.environment, query.start, query.end];
  const { total, rows } = await pageWithTotal<RefundResponseRow>(
    db,
    { table: 'pix_refunds', columns: RESPONSE_COLUMNS, where, params, orderBy: 'created_at DESC, id DESC' },
    query,
  );
  return { total, refunds: rows.map(responseOf) };
}

/** A pix_refunds row of RESPONSE_COLUMNS, as pg reads it (bigint as text). */
interface RefundResponseRow {
  id: string;
  refund_id: string | null;
  amount_centavos: string;
  status: RefundStatus;
  charge_id: string;
  transaction_id: string;
  created_at: Date;
  refunded_at: Date | null;
}

const responseOf = (row: RefundResponseRow): RefundResponse => ({
  id: Number(row.id),
  refund_id: row.refund_id,
  amount: centavosToReais(Number(row.amount_centavos)),
  status: row.status,
  transaction: { id: Number(row.charge_id), transaction_id: row.transaction_id },
  created_at: isoUtc(row.created_at),
  refunded_at: row.refunded_at ? isoUtc(row.refunded_at) : null,
});

/**
 * PROCESSING refunds whose next look at the bank has come, earliest first, each pushed `retryAfterSeconds`
 * further at once (so a crash or a slow bank costs a later look, never a lost one). A sandbox refund whose 60 seconds
 * passed on its tenant's clock is due too, and says so.
 */
export async function claimRefundChecks(db: EntityManager, now: Date, limit: number): Promise<RefundRef[]> {
  // An UPDATE answers TypeORM's [rows, count].
  const [rows]: [RefundRow[], number] = await db.query(
    `WITH due AS (
       SELECT id FROM pix_refunds WHERE status = 'PROCESSING' AND next_check_at <= now() ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE pix_refunds r
        SET checks = r.checks + 1,
            next_check_at = now() + LEAST(power(2, r.checks + 1), CASE WHEN r.environment = 'sandbox' THEN 2 ELSE 300 END) * interval '1 second'
       FROM due WHERE r.id = due.id
     RETURNING ${REF_COLUMNS.split(', ')
       .map((c) => `r.${c}`)
       .join(', ')},
               (r.environment = 'sandbox' AND r.created_at + interval '60 seconds' <= ${tenantNowSql('$1', 'r.account_id', 'r.environment')}) AS settle_due`,
    [now, limit],
  );
  return rows.map(refOf);
}
