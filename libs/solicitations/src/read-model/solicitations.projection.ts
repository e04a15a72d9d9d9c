import { EntityManager } from 'typeorm';
import { EventEnvelope, RecurrenceCreatedData, RecurrenceEventTypes, SolicitationResponse, SolicitationStatus, Tenant } from '@pixauto/contracts';
import { recurrenceStatusAfter } from '@pixauto/recurrences';
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

/** What a batch of recurrence events teaches about one recurrence: its last status and the version it was learnt at. */
export interface KnownRecurrenceChange {
  account_id: string;
  environment: string;
  recurrence_id: string;
  status: string;
  version: number;
  /** Only when the batch holds the recurrence's creation: the row is made, with its bank id. */
  bank_id_rec?: string;
}

/**
 * A batch of recurrence events (in their order) as one change per recurrence: a creation with the status the later
 * events of the batch leave, or the last status of a recurrence created before the batch. The status is the one
 * each event's record shows (a version 1 event's, read through the upcaster of @pixauto/recurrences).
 */
export function knownRecurrenceChanges(events: readonly EventEnvelope[]): KnownRecurrenceChange[] {
  const changes = new Map<string, KnownRecurrenceChange>();
  for (const event of events) {
    const { account_id, environment } = event.tenant;
    if (event.type === RecurrenceEventTypes.created) {
      const data = event.data as RecurrenceCreatedData;
      const key = `${account_id}/${environment}/${data.recurrence_id}`;
      const known = changes.get(key);
      if (!known || known.version < event.version)
        changes.set(key, {
          account_id,
          environment,
          recurrence_id: data.recurrence_id,
          status: recurrenceStatusAfter(event) ?? 'CREATED',
          version: event.version,
          bank_id_rec: data.bank.id_rec,
        });
      continue;
    }
    const status = recurrenceStatusAfter(event);
    if (!status) continue;
    const recurrence_id = event.stream_id.split(':').pop() as string;
    const key = `${account_id}/${environment}/${recurrence_id}`;
    const known = changes.get(key);
    if (known && known.version >= event.version) continue;
    changes.set(key, { ...known, account_id, environment, recurrence_id, status, version: event.version });
  }
  return [...changes.values()];
}

const column = <K extends keyof KnownRecurrenceChange>(changes: KnownRecurrenceChange[], key: K) => changes.map((change) => change[key]);

/**
 * Applies a fetched batch of recurrence events in one statement for the creations and one for the other changes,
 * without a transaction or a processed-message row: each is idempotent by version (an event the row already knows, or
 * an older one, changes nothing), so a batch delivered again, whole or in part, leaves the rows as they were.
 */
export async function learnRecurrences(db: EntityManager, events: readonly EventEnvelope[]): Promise<void> {
  const changes = knownRecurrenceChanges(events);
  const created = changes.filter((change) => change.bank_id_rec !== undefined);
  const moved = changes.filter((change) => change.bank_id_rec === undefined);
  if (created.length > 0)
    await db.query(
      `INSERT INTO known_recurrences AS k (account_id, environment, recurrence_id, status, bank_id_rec, version)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[])
       ON CONFLICT (account_id, environment, recurrence_id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version
       WHERE k.version < EXCLUDED.version`,
      [
        column(created, 'account_id'),
        column(created, 'environment'),
        column(created, 'recurrence_id'),
        column(created, 'status'),
        column(created, 'bank_id_rec'),
        column(created, 'version'),
      ],
    );
  if (moved.length > 0)
    await db.query(
      `UPDATE known_recurrences k SET status = c.status, version = c.version
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) AS c (account_id, environment, recurrence_id, status, version)
       WHERE k.account_id = c.account_id AND k.environment = c.environment AND k.recurrence_id = c.recurrence_id AND k.version < c.version`,
      [column(moved, 'account_id'), column(moved, 'environment'), column(moved, 'recurrence_id'), column(moved, 'status'), column(moved, 'version')],
    );
}
