import { EntityManager } from 'typeorm';
import { EventEnvelope, RecurrenceCreatedData, RecurrenceEventTypes, SolicitationResponse, SolicitationStatus, Tenant } from '@pixauto/contracts';
import { tenantNowSql } from '@pixauto/runtime';
import { Claim, claimRows, ClaimTarget, dueRowsSql, Projection, sql, WORK_LEASE_MS } from '@pixauto/event-store';
import { SolicitationEvent, SolicitationOutcome, SolicitationState } from '../solicitation';

/** The solicitations read model: one row per solicitation, upserted from the state the new events lead to. */
export const projectSolicitation: Projection<SolicitationEvent, SolicitationState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const s = state.data;
  return [
    sql(
      `INSERT INTO solicitations AS s (account_id, environment, solicitation_id, recurrence_id, status, outcome, expires_at, bank_id_solic_rec,
         version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (account_id, environment, solicitation_id) DO UPDATE SET
         status = EXCLUDED.status, outcome = EXCLUDED.outcome, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
       WHERE s.version < EXCLUDED.version`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        s.solicitation_id,
        s.recurrence_id,
        state.status,
        state.outcome,
        s.expires_at,
        s.bank.id_solic_rec,
        last.version,
        last.occurredAt,
      ],
    ),
  ];
};

export async function findSolicitation(db: EntityManager, tenant: Tenant, solicitationId: string): Promise<SolicitationResponse | undefined> {
  const [row] = await db.query(
    'SELECT solicitation_id, recurrence_id, status FROM solicitations WHERE account_id = $1 AND environment = $2 AND solicitation_id = $3',
    [tenant.accountId, tenant.environment, solicitationId],
  );
  return row;
}

export async function hasActiveSolicitation(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM solicitations WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3 AND outcome = 'PENDING'`, [
    tenant.accountId,
    tenant.environment,
    recurrenceId,
  ]);
  return rows.length > 0;
}

export interface PendingSolicitation {
  tenant: Tenant;
  solicitationId: string;
  status: SolicitationStatus;
  outcome: SolicitationOutcome;
  bankIdSolicRec: string;
}

const SOLICITATIONS: ClaimTarget = { table: 'solicitations', keys: { account_id: 'text', environment: 'text', solicitation_id: 'text' } };

/** Claims up to 200 pending solicitations meeting `condition`, the nearest deadline first (another replica's skipped). */
const claimPending = (db: EntityManager, condition: string, params: unknown[], leaseMs: number): Promise<Claim<PendingSolicitation>> =>
  claimRows(
    db,
    SOLICITATIONS,
    {
      candidates: dueRowsSql(SOLICITATIONS, `outcome = 'PENDING' AND ${condition}`, 'expires_at', '200'),
      returning: 't.account_id, t.environment, t.solicitation_id, t.status, t.outcome, t.bank_id_solic_rec, t.expires_at',
      orderBy: 'expires_at',
      params,
      toItem: (row) => ({
        tenant: { accountId: row.account_id as string, environment: row.environment as Tenant['environment'] },
        solicitationId: row.solicitation_id as string,
        status: row.status as SolicitationStatus,
        outcome: row.outcome as SolicitationOutcome,
        bankIdSolicRec: row.bank_id_solic_rec as string,
      }),
    },
    leaseMs,
  );

/** Pending solicitations whose deadline has passed at their tenant's now (`now` is real time; a sandbox clock shifts it). */
export const claimDueSolicitations = (db: EntityManager, now: Date, leaseMs = WORK_LEASE_MS) =>
  claimPending(db, `expires_at <= ${tenantNowSql('$1', 'solicitations.account_id', 'solicitations.environment')}`, [now], leaseMs);

/**
 * Pending solicitations the bank may have moved on (the BCB API pushes none: we ask). The alert's path (CREATED,
 * SENT) takes a second or two and is asked about often; a RECEIVED one waits on the payer, maybe for days.
 */
export const claimSolicitationsToFollow = (db: EntityManager, stage: 'alert' | 'answer', leaseMs = WORK_LEASE_MS) =>
  claimPending(db, stage === 'alert' ? `status IN ('CREATED', 'SENT')` : `status = 'RECEIVED'`, [], leaseMs);

// Known recurrences: what this service learns from the recurrence events.

export interface KnownRecurrence {
  status: string;
  bankIdRec: string;
}

export async function findKnownRecurrence(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<KnownRecurrence | undefined> {
  const [row] = await db.query('SELECT status, bank_id_rec FROM known_recurrences WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3', [
    tenant.accountId,
    tenant.environment,
    recurrenceId,
  ]);
  return row && { status: row.status, bankIdRec: row.bank_id_rec };
}

const STATUS_AFTER: Partial<Record<string, string>> = {
  [RecurrenceEventTypes.approved]: 'APPROVED',
  [RecurrenceEventTypes.rejected]: 'REJECTED',
  [RecurrenceEventTypes.expired]: 'EXPIRED',
  [RecurrenceEventTypes.cancelled]: 'CANCELLED',
};

/** Applies one recurrence event (in its consumer's transaction); an older event than the row knows changes nothing. */
export async function learnRecurrence(tx: EntityManager, event: EventEnvelope): Promise<void> {
  const { account_id, environment } = event.tenant;
  if (event.type === RecurrenceEventTypes.created) {
    const data = event.data as RecurrenceCreatedData;
    await tx.query(
      `INSERT INTO known_recurrences (account_id, environment, recurrence_id, status, bank_id_rec, version) VALUES ($1, $2, $3, 'CREATED', $4, $5)
       ON CONFLICT DO NOTHING`,
      [account_id, environment, data.recurrence_id, data.bank.id_rec, event.version],
    );
    return;
  }
  const status = STATUS_AFTER[event.type];
  if (!status) return;
  const recurrenceId = event.stream_id.split(':').pop();
  await tx.query('UPDATE known_recurrences SET status = $4, version = $5 WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3 AND version < $5', [
    account_id,
    environment,
    recurrenceId,
    status,
    event.version,
  ]);
}
