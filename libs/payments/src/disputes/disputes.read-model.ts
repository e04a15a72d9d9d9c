import { EntityManager } from 'typeorm';
import {
  DisputeRecordData,
  DisputeResponse,
  disputeResponse,
  Environment,
  EvidenceFile,
  ListDisputesQuery,
  PixChargeDisputeData,
  PixChargeEventTypes,
  Tenant,
} from '@pixauto/contracts';
import { pageWithTotal, RecordedEvent, sql, SqlStatement } from '@pixauto/event-store';
import { tenantNowSql } from '@pixauto/runtime';

const DISPUTE_EVENT_TYPES: readonly string[] = [
  PixChargeEventTypes.disputeOpened,
  PixChargeEventTypes.disputeDefended,
  PixChargeEventTypes.disputeReturned,
  PixChargeEventTypes.disputeRejected,
];

/** The pix_disputes rows of dispute events (one per event, in order): the whole dispute each time. */
export function projectDisputeEvents(events: readonly RecordedEvent[]): SqlStatement[] {
  return events
    .filter((event) => DISPUTE_EVENT_TYPES.includes(event.type))
    .map((event) => {
      const { charge, dispute } = event.data as PixChargeDisputeData;
      return sql(
        `INSERT INTO pix_disputes (id, account_id, environment, infraction_id, charge_id, transaction_id, charge_amount_centavos, status, opened_at, record, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, version = EXCLUDED.version`,
        [
          dispute.id,
          event.tenant.accountId,
          event.tenant.environment,
          dispute.infraction_id,
          charge.id,
          charge.transaction_id,
          charge.amount_centavos,
          dispute.status,
          dispute.opened_at,
          JSON.stringify(dispute),
          event.version,
        ],
      );
    });
}

/** The sandbox's timing of a dispute it opens, written with its opening (the same statement). */
export const sandboxConclusionSql = (disputeId: number, concludeAt: string): SqlStatement =>
  sql('INSERT INTO sandbox_dispute_conclusions (dispute_id, conclude_at, next_check_at) VALUES ($1, $2, now())', [disputeId, concludeAt]);

/** A defence's files, written with its event (the same transaction): ids drawn before, in the files' order. */
export const evidenceSql = (tenant: Tenant, disputeId: number, files: readonly { id: number; file: EvidenceFile }[]): SqlStatement[] =>
  files.map(({ id, file }) =>
    sql('INSERT INTO dispute_evidence (id, account_id, environment, dispute_id, file_name, content_type, content) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      id,
      tenant.accountId,
      tenant.environment,
      disputeId,
      file.file_name,
      file.content_type,
      file.content,
    ]),
  );

export const nextDisputeId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('pix_dispute_ids') AS id`))[0].id);

export async function nextEvidenceIds(db: EntityManager, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows: { id: string }[] = await db.query(`SELECT nextval('dispute_evidence_ids') AS id FROM generate_series(1, $1)`, [count]);
  return rows.map((row) => Number(row.id));
}

/** A dispute's tenant, payment stream key and bank id, for work that knows it by another name. */
export interface DisputeRef {
  tenant: Tenant;
  id: number;
  chargeTransactionId: string;
  infractionId: string;
  record: DisputeRecordData;
}

interface DisputeRow {
  id: string;
  account_id: string;
  environment: Environment;
  infraction_id: string;
  charge_id: string;
  transaction_id: string;
  charge_amount_centavos: string;
  record: DisputeRecordData;
}

const COLUMNS = 'id, account_id, environment, infraction_id, charge_id, transaction_id, charge_amount_centavos, record';

const refOf = (row: DisputeRow): DisputeRef => ({
  tenant: { accountId: row.account_id, environment: row.environment },
  id: Number(row.id),
  chargeTransactionId: row.transaction_id,
  infractionId: row.infraction_id,
  record: row.record,
});

const responseOf = (row: DisputeRow): DisputeResponse =>
  disputeResponse(row.record, { id: Number(row.charge_id), transaction_id: row.transaction_id, amount_centavos: Number(row.charge_amount_centavos) });

export async function findDispute(db: EntityManager, tenant: Tenant, id: number): Promise<{ ref: DisputeRef; response: DisputeResponse } | undefined> {
  const [row] = await db.query(`SELECT ${COLUMNS} FROM pix_disputes WHERE account_id = $1 AND environment = $2 AND id = $3`, [
    tenant.accountId,
    tenant.environment,
    id,
  ]);
  return row && { ref: refOf(row), response: responseOf(row) };
}

/** One page of the tenant's disputes opened in [start, end), of one status or all, newest first (ties by id). */
export async function listDisputes(db: EntityManager, tenant: Tenant, query: ListDisputesQuery): Promise<{ total: number; disputes: DisputeResponse[] }> {
  const where = `account_id = $1 AND environment = $2 AND opened_at >= $3 AND opened_at < $4${query.status ? ' AND status = $5' : ''}`;
  const params: unknown[] = [tenant.accountId, tenant.environment, query.start, query.end, ...(query.status ? [query.status] : [])];
  const { total, rows } = await pageWithTotal<DisputeRow>(
    db,
    { table: 'pix_disputes', columns: COLUMNS, where, params, orderBy: 'opened_at DESC, id DESC' },
    query,
  );
  return { total, disputes: rows.map(responseOf) };
}

/** An evidence file of the tenant's dispute. */
export async function findEvidence(
  db: EntityManager,
  tenant: Tenant,
  disputeId: number,
  evidenceId: number,
): Promise<{ file_name: string; content_type: string; content: Buffer } | undefined> {
  const [row] = await db.query(
    'SELECT file_name, content_type, content FROM dispute_evidence WHERE account_id = $1 AND environment = $2 AND dispute_id = $3 AND id = $4',
    [tenant.accountId, tenant.environment, disputeId, evidenceId],
  );
  return row;
}

/**
 * Sandbox disputes in progress whose conclusion time has come on their tenant's clock, each pushed 2 s further at once
 * (a crash or a slow bank costs a later look, never a lost one; two replicas never take the same row).
 */
export async function claimDueConclusions(db: EntityManager, now: Date, limit: number): Promise<DisputeRef[]> {
  const [rows]: [DisputeRow[], number] = await db.query(
    `WITH due AS (
       SELECT c.dispute_id FROM sandbox_dispute_conclusions c JOIN pix_disputes d ON d.id = c.dispute_id
        WHERE d.status IN ('OPEN', 'DEFENDED') AND c.next_check_at <= now()
          AND c.conclude_at <= ${tenantNowSql('$1', 'd.account_id', 'd.environment')}
        ORDER BY c.next_check_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED)
     UPDATE sandbox_dispute_conclusions c SET next_check_at = now() + interval '2 seconds'
       FROM due, pix_disputes d WHERE c.dispute_id = due.dispute_id AND d.id = c.dispute_id
     RETURNING ${COLUMNS.split(', ')
       .map((column) => `d.${column}`)
       .join(', ')}`,
    [now, limit],
  );
  return rows.map(refOf);
}
