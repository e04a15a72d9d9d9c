import { EntityManager } from 'typeorm';
import {
  AccountChangedData,
  AccountEventTypes,
  AccountOpenedData,
  EventEnvelope,
  PayoutCreatedData,
  PayoutEventTypes,
  PixChargeEventTypes,
  PixChargePaidData,
  pixChargeRecordOf,
  PixChargeRefundData,
  ProviderCredentials,
  Tenant,
} from '@pixauto/contracts';
import { ReceiptKind, ReceiptParent, ReceiptPayout, ReceiptRefund } from '../receipt-lookup';

const PIX_CHARGE_EVENT_TYPES: readonly string[] = Object.values(PixChargeEventTypes);
const PAYOUT_EVENT_TYPES: readonly string[] = Object.values(PayoutEventTypes);
export const RECEIPT_EVENT_TYPES: readonly string[] = [...PIX_CHARGE_EVENT_TYPES, ...PAYOUT_EVENT_TYPES, AccountEventTypes.opened, AccountEventTypes.changed];

/**
 * Applies a batch of payment, payout and account events, each row to the version of its latest event (a redelivery,
 * a replay or an older event changes nothing).
 */
export async function applyReceiptEvents(db: EntityManager, events: readonly EventEnvelope[]): Promise<void> {
  for (const event of events) {
    if (event.type === AccountEventTypes.opened || event.type === AccountEventTypes.changed) await applyAccountEvent(db, event);
    else if (PIX_CHARGE_EVENT_TYPES.includes(event.type)) await applyChargeEvent(db, event);
    else if (PAYOUT_EVENT_TYPES.includes(event.type)) await applyPayoutEvent(db, event);
  }
}

async function applyChargeEvent(db: EntityManager, event: EventEnvelope): Promise<void> {
  const data = event.data as PixChargePaidData | PixChargeRefundData;
  const charge = pixChargeRecordOf(data);
  const { account_id: accountId, environment } = event.tenant;
  await db.query(
    `INSERT INTO receipt_charges AS c (account_id, environment, id, transaction_id, provider, version) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id, environment, id) DO UPDATE SET provider = EXCLUDED.provider, version = EXCLUDED.version WHERE c.version < EXCLUDED.version`,
    [accountId, environment, charge.id, charge.transaction_id, charge.provider, event.version],
  );
  if ('refund' in data) await upsertRefund(db, event, 'pix', charge.id, data.refund);
}

async function applyPayoutEvent(db: EntityManager, event: EventEnvelope): Promise<void> {
  const { payout } = event.data as PayoutCreatedData;
  const { account_id: accountId, environment } = event.tenant;
  await db.query(
    `INSERT INTO receipt_payouts AS p (account_id, environment, id, transaction_id, provider, status, e2e, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (account_id, environment, id) DO UPDATE SET status = EXCLUDED.status, e2e = EXCLUDED.e2e, version = EXCLUDED.version WHERE p.version < EXCLUDED.version`,
    [accountId, environment, payout.id, payout.transaction_id, payout.provider, payout.status, payout.e2e, event.version],
  );
  // A return is final on arrival: liquidated, with its rtrId.
  for (const r of payout.returns ?? [])
    await upsertRefund(db, event, 'payout', payout.id, { id: r.id, refund_id: r.refund_id, status: 'REFUNDED', rtr_id: r.rtr_id });
}

async function upsertRefund(db: EntityManager, event: EventEnvelope, kind: ReceiptKind, parentId: number, r: ReceiptRefund): Promise<void> {
  await db.query(
    `INSERT INTO receipt_refunds AS r (account_id, environment, id, kind, refund_id, parent_id, status, rtr_id, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (account_id, environment, id) DO UPDATE SET status = EXCLUDED.status, rtr_id = EXCLUDED.rtr_id, version = EXCLUDED.version
     WHERE r.version < EXCLUDED.version`,
    [event.tenant.account_id, event.tenant.environment, r.id, kind, r.refund_id, parentId, r.status, r.rtr_id, event.version],
  );
}

async function applyAccountEvent(db: EntityManager, event: EventEnvelope): Promise<void> {
  const providers = event.type === AccountEventTypes.opened ? (event.data as AccountOpenedData).providers : (event.data as AccountChangedData).providers;
  if (providers === undefined) return; // a change of something else
  await db.query(
    `INSERT INTO receipt_accounts AS a (account_id, providers, version) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET providers = EXCLUDED.providers, version = EXCLUDED.version WHERE a.version < EXCLUDED.version`,
    [event.tenant.account_id, JSON.stringify(providers), event.version],
  );
}

/** The consumer group that fills this database: named after it and its generation, so a new database reads from the start. */
export async function receiptFollowerGroup(db: EntityManager, databaseName: string): Promise<string> {
  const [{ generation }] = await db.query('SELECT generation FROM receipts_generation');
  return `${databaseName}-${generation}`;
}

/** A cash-in charge (kind 'pix') or a payout, by id or transaction_id, within the tenant. */
export async function findReceiptParent(
  db: EntityManager,
  tenant: Tenant,
  kind: ReceiptKind,
  by: { id: number } | { transaction_id: string },
): Promise<ReceiptParent | undefined> {
  const table = kind === 'pix' ? 'receipt_charges' : 'receipt_payouts';
  const [row] = await db.query(
    `SELECT id, transaction_id, provider FROM ${table} WHERE account_id = $1 AND environment = $2 AND ${'id' in by ? 'id' : 'transaction_id'} = $3 ORDER BY id DESC LIMIT 1`,
    [tenant.accountId, tenant.environment, 'id' in by ? by.id : by.transaction_id],
  );
  return row && { id: Number(row.id), transaction_id: row.transaction_id, provider: row.provider };
}

/** A payout with what its receipt needs: its status and end-to-end id. */
export async function findReceiptPayout(
  db: EntityManager,
  tenant: Tenant,
  by: { id: number } | { transaction_id: string },
): Promise<ReceiptPayout | undefined> {
  const [row] = await db.query(
    `SELECT id, transaction_id, provider, status, e2e FROM receipt_payouts WHERE account_id = $1 AND environment = $2 AND ${'id' in by ? 'id' : 'transaction_id'} = $3 ORDER BY id DESC LIMIT 1`,
    [tenant.accountId, tenant.environment, 'id' in by ? by.id : by.transaction_id],
  );
  return row && { id: Number(row.id), transaction_id: row.transaction_id, provider: row.provider, status: Number(row.status), e2e: row.e2e };
}

/** The refund that carries this refund_id (one that did not fail, if any did), of either kind. */
export async function findRefundByRefundId(
  db: EntityManager,
  tenant: Tenant,
  refundId: string,
): Promise<{ refund: ReceiptRefund; kind: ReceiptKind; parentId: number } | undefined> {
  const [row] = await db.query(
    `SELECT id, refund_id, status, rtr_id, kind, parent_id FROM receipt_refunds WHERE account_id = $1 AND environment = $2 AND refund_id = $3
      ORDER BY (status = 'FAILED'), id DESC LIMIT 1`,
    [tenant.accountId, tenant.environment, refundId],
  );
  return row && { refund: refundOf(row), kind: row.kind, parentId: Number(row.parent_id) };
}

export async function findRefundsOf(db: EntityManager, tenant: Tenant, kind: ReceiptKind, parentId: number): Promise<ReceiptRefund[]> {
  const rows = await db.query(
    'SELECT id, refund_id, status, rtr_id FROM receipt_refunds WHERE account_id = $1 AND environment = $2 AND kind = $3 AND parent_id = $4 ORDER BY id',
    [tenant.accountId, tenant.environment, kind, parentId],
  );
  return rows.map(refundOf);
}

export async function findAccountProviders(db: EntityManager, accountId: string): Promise<ProviderCredentials[]> {
  const [row] = await db.query('SELECT providers FROM receipt_accounts WHERE account_id = $1', [accountId]);
  return (row?.providers as ProviderCredentials[] | undefined) ?? [];
}

const refundOf = (row: { id: string; refund_id: string | null; status: ReceiptRefund['status']; rtr_id: string | null }): ReceiptRefund => ({
  id: Number(row.id),
  refund_id: row.refund_id,
  status: row.status,
  rtr_id: row.rtr_id,
});
