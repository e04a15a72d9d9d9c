import { EntityManager } from 'typeorm';
import {
  ACTIVATION_SUFFIX,
  Environment,
  EventEnvelope,
  ListPixChargesQuery,
  PixChargeDisputeSummary,
  PixChargeResponse,
  PixChargeStatus,
  RecurrenceApprovedData,
  RecurrenceCreatedData,
  RecurrenceEventTypes,
  Tenant,
} from '@pixauto/contracts';
import { Claim, claimRows, ClaimTarget, dueRowsSql, pageWithTotal, Projection, sql, WORK_LEASE_MS } from '@pixauto/event-store';
import { centavosToReais, isoUtc } from '@pixauto/pix';
import { tenantNowSql } from '@pixauto/runtime';
import { PixChargeEvent, PixChargeState } from '../pix-charge';
import { projectRefundEvents } from '../refunds/refunds.read-model';
import { projectDisputeEvents } from '../disputes/disputes.read-model';

/** The pix_charges row follows the stream: written whole at the first event, its changing columns after. */
export const projectPixCharge: Projection<PixChargeEvent, PixChargeState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const c = state.charge;
  return [
    ...projectRefundEvents(events),
    sql(
      `INSERT INTO pix_charges (account_id, environment, id, transaction_id, amount_centavos, status, provider, recurrence_id, activation_charge_id,
                                payer_document_number, payer_name, description, webhook, pix_copy_paste, expires_at, txid, location, e2e_id,
                                created_at, paid_at, version, dispute)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
       ON CONFLICT (account_id, environment, id) DO UPDATE
         SET status = EXCLUDED.status, pix_copy_paste = EXCLUDED.pix_copy_paste, e2e_id = EXCLUDED.e2e_id, paid_at = EXCLUDED.paid_at, version = EXCLUDED.version,
             dispute = EXCLUDED.dispute`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        c.id,
        c.transaction_id,
        c.amount_centavos,
        c.status,
        c.provider,
        c.origin?.recurrence_id ?? null,
        c.origin?.activation_charge_id ?? null,
        c.payer?.document_number ?? null,
        c.payer?.name ?? null,
        c.description,
        c.webhook,
        c.pix_copy_paste,
        c.expires_at,
        c.bank?.txid ?? null,
        c.bank?.location ?? null,
        c.e2e_id,
        c.created_at,
        c.paid_at,
        last.version,
        c.dispute ? JSON.stringify(c.dispute) : null,
      ],
    ),
    ...projectDisputeEvents(events),
  ];
};

export const nextPixChargeId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('pix_charge_ids') AS id`))[0].id);

const RESPONSE_COLUMNS =
  'id, transaction_id, amount_centavos, status, provider, payer_document_number, payer_name, description, webhook, pix_copy_paste, expires_at, created_at, paid_at, dispute';

/** The charge as the API shows it (docs/api/cash-in.md), without its QR image. */
export async function findPixCharge(db: EntityManager, tenant: Tenant, by: { id?: number; transaction_id?: string }): Promise<PixChargeResponse | undefined> {
  const [row] = await db.query(
    `SELECT ${RESPONSE_COLUMNS} FROM pix_charges WHERE account_id = $1 AND environment = $2 AND ${by.id !== undefined ? 'id = $3' : 'transaction_id = $3'}`,
    [tenant.accountId, tenant.environment, by.id ?? by.transaction_id],
  );
  return row && responseOf(row);
}

/**
 * One page of the tenant's charges created in [start, end), of one status or all, newest first (ties by id), with
 * how many match in all: both read the pix_charges_created index's range of the period.
 */
export async function listPixCharges(db: EntityManager, tenant: Tenant, query: ListPixChargesQuery): Promise<{ total: number; charges: PixChargeResponse[] }> {
  const where = `account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4${query.status ? ' AND status = $5' : ''}`;
  const params: unknown[] = [tenant.accountId, tenant.environment, query.start, query.end, ...(query.status ? [query.status] : [])];
  const { total, rows } = await pageWithTotal<PixChargeResponseRow>(
    db,
    { table: 'pix_charges', columns: RESPONSE_COLUMNS, where, params, orderBy: 'created_at DESC, id DESC' },
    query,
  );
  return { total, charges: rows.map(responseOf) };
}

/** A pix_charges row of RESPONSE_COLUMNS, as pg reads it (bigint as text). */
interface PixChargeResponseRow {
  id: string;
  transaction_id: string;
  amount_centavos: string;
  status: PixChargeStatus;
  provider: string;
  payer_document_number: string | null;
  payer_name: string;
  description: string | null;
  webhook: string | null;
  pix_copy_paste: string | null;
  expires_at: Date | null;
  created_at: Date;
  paid_at: Date | null;
  dispute: PixChargeDisputeSummary | null;
}

function responseOf(row: PixChargeResponseRow): PixChargeResponse {
  return {
    id: Number(row.id),
    transaction_id: row.transaction_id,
    amount: centavosToReais(Number(row.amount_centavos)),
    status: row.status,
    provider: row.provider,
    payer: row.payer_document_number === null ? null : { document_number: row.payer_document_number, name: row.payer_name },
    description: row.description,
    webhook: row.webhook,
    pix_copy_paste: row.pix_copy_paste,
    expires_at: row.expires_at ? isoUtc(row.expires_at) : null,
    created_at: isoUtc(row.created_at),
    paid_at: row.paid_at ? isoUtc(row.paid_at) : null,
    dispute: row.dispute,
  };
}

/**
 * Whether a transaction_id is taken in the tenant: by a charge, or by the deposit a journey 3 recurrence announced
 * (`<its transaction_id>-ativacao`, recorded once paid). A first look: the stream (keyed by it) settles races.
 */
export async function pixChargeTransactionIdTaken(db: EntityManager, tenant: Tenant, transactionId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM pix_charges WHERE account_id = $1 AND environment = $2 AND transaction_id = $3
     UNION ALL
     SELECT 1 FROM pending_activations WHERE account_id = $1 AND environment = $2 AND transaction_id || $4 = $3
     LIMIT 1`,
    [tenant.accountId, tenant.environment, transactionId, ACTIVATION_SUFFIX],
  );
  return rows.length > 0;
}

/** A charge's tenant, stream key and bank charge, for work that knows it by another name. */
export interface PixChargeRef {
  tenant: Tenant;
  id: number;
  transactionId: string;
  txid: string | null;
}

const refOf = (row: { account_id: string; environment: Environment; id: string; transaction_id: string; txid: string | null }): PixChargeRef => ({
  tenant: { accountId: row.account_id, environment: row.environment },
  id: Number(row.id),
  transactionId: row.transaction_id,
  txid: row.txid,
});

export async function findPixChargeById(db: EntityManager, tenant: Tenant, id: number): Promise<PixChargeRef | undefined> {
  const [row] = await db.query(
    'SELECT account_id, environment, id, transaction_id, txid FROM pix_charges WHERE account_id = $1 AND environment = $2 AND id = $3',
    [tenant.accountId, tenant.environment, id],
  );
  return row && refOf(row);
}

/** The charge the bank names by its txid, if it is ours in that environment. */
export async function findPixChargeByTxid(db: EntityManager, environment: Environment, txid: string): Promise<PixChargeRef | undefined> {
  const [row] = await db.query('SELECT account_id, environment, id, transaction_id, txid FROM pix_charges WHERE txid = $1 AND environment = $2', [
    txid,
    environment,
  ]);
  return row && refOf(row);
}

const PIX_CHARGES: ClaimTarget = { table: 'pix_charges', keys: { account_id: 'text', environment: 'text', id: 'bigint' } };

/**
 * Claims PENDING charges whose expires_at their tenant's now has reached (the sandbox's follows its test clock),
 * oldest first, skipping those another replica holds.
 */
export function claimDuePixChargeExpiries(db: EntityManager, now: Date, limit: number, leaseMs = WORK_LEASE_MS): Promise<Claim<PixChargeRef>> {
  return claimRows(
    db,
    PIX_CHARGES,
    {
      candidates: dueRowsSql(
        PIX_CHARGES,
        `status = 'PENDING' AND expires_at <= ${tenantNowSql('$1', 'pix_charges.account_id', 'pix_charges.environment')}`,
        'expires_at',
        '$2',
      ),
      returning: 't.account_id, t.environment, t.id, t.transaction_id, t.txid, t.expires_at',
      orderBy: 'expires_at',
      params: [now, limit],
      toItem: (row) => refOf(row as Parameters<typeof refOf>[0]),
    },
    leaseMs,
  );
}

export interface PendingActivation {
  transactionId: string;
  activationChargeId: string;
  amountCentavos: number;
  provider: string;
  payer: { document_number: string; name: string } | null;
  description: string | null;
  webhook: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** Remembers a journey 3 activation when its recurrence is created (in the consumer's transaction). */
/** Whether a recurrence event matters to journey 3 activations: a creation carrying one, or a journey 3 approval (which pays it). */
export function concernsActivation(event: Pick<EventEnvelope, 'type' | 'data'>): boolean {
  if (event.type === RecurrenceEventTypes.created) return Boolean((event.data as RecurrenceCreatedData).activation);
  return event.type === RecurrenceEventTypes.approved && (event.data as RecurrenceApprovedData).journey === 'JOURNEY_3';
}

export async function learnActivation(tx: EntityManager, event: EventEnvelope): Promise<void> {
  if (event.type !== RecurrenceEventTypes.created) return;
  const data = event.data as RecurrenceCreatedData;
  if (!data.activation) return;
  // Events outlive code: one recorded before activations named their provider means the platform's default bank.
  const provider = data.activation.provider ?? 'PROVIDER_A';
  await tx.query(
    `INSERT INTO pending_activations (account_id, environment, recurrence_id, transaction_id, activation_charge_id, amount_centavos, provider, created_at,
                                      payer_document_number, payer_name, description, webhook, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
    [
      event.tenant.account_id,
      event.tenant.environment,
      data.recurrence_id,
      data.transaction_id,
      data.activation.charge_id,
      data.activation.amount_centavos,
      provider,
      event.occurred_at,
      data.debtor.document_number,
      data.debtor.name,
      data.object,
      data.activation.webhook ?? null,
      data.activation.expires_at ?? null,
    ],
  );
}

export async function findPendingActivation(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<PendingActivation | undefined> {
  const [row] = await db.query(
    `SELECT transaction_id, activation_charge_id, amount_centavos, provider, created_at, payer_document_number, payer_name, description, webhook, expires_at
       FROM pending_activations WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3`,
    [tenant.accountId, tenant.environment, recurrenceId],
  );
  return (
    row && {
      transactionId: row.transaction_id,
      activationChargeId: row.activation_charge_id,
      amountCentavos: Number(row.amount_centavos),
      provider: row.provider,
      payer: row.payer_document_number === null ? null : { document_number: row.payer_document_number, name: row.payer_name },
      description: row.description,
      webhook: row.webhook,
      expiresAt: row.expires_at,
      createdAt: row.created_at,
    }
  );
}
