import { EntityManager } from 'typeorm';
import { InfractionRecord } from '../domain/infraction';
import { RefundRecord } from '../domain/refund';
import { CobRecord, CobRRecord, LocationRecord, PayoutRecord, RecRecord, SolicRecord, WebhookKind } from '../domain/records';

// SQL for the simulator's tables (schema.migration.ts). Every read is scoped by client: one client never sees
// another's rows. `lock` takes the row for the rest of the transaction (always recurrence, then its
// solicitations, then charges (immediate or recurring), so two transactions never wait on each other in a circle).

type Row = Record<string, unknown>;
const forUpdate = (lock: boolean): string => (lock ? ' FOR UPDATE' : '');

const WEBHOOK_TABLES: Record<WebhookKind, string> = { rec: 'recurrence_webhooks', cobr: 'recurring_charge_webhooks', pagamentos: 'payout_webhooks' };

/** A unique index refused the row: which one (the constraint's name), else undefined. */
export function uniqueViolationOf(error: unknown): string | undefined {
  const driverError = (error as { driverError?: { code?: unknown; constraint?: unknown } } | null)?.driverError;
  return driverError?.code === '23505' ? String(driverError.constraint ?? '') : undefined;
}

const locationOf = (row: Row): LocationRecord => ({
  id: Number(row.id),
  kind: row.kind as LocationRecord['kind'],
  location: row.location as string,
  createdAt: (row.created_at as Date).toISOString(),
  idRec: (row.id_rec as string | null) ?? null,
});

export class BankStore {
  async insertLocation(m: EntityManager, client: string, kind: LocationRecord['kind'], location: string, at: Date): Promise<LocationRecord> {
    const rows: Row[] = await m.query('INSERT INTO locations (client, kind, location, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
      client,
      kind,
      location,
      at,
    ]);
    return locationOf(rows[0]);
  }

  async findLocation(m: EntityManager, client: string, id: number, lock = false): Promise<LocationRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT * FROM locations WHERE client = $1 AND id = $2${forUpdate(lock)}`, [client, id]);
    return rows[0] && locationOf(rows[0]);
  }

  async bindLocation(m: EntityManager, id: number, idRec: string | null): Promise<void> {
    await m.query('UPDATE locations SET id_rec = $2 WHERE id = $1', [id, idRec]);
  }

  async insertRecurrence(m: EntityManager, client: string, rec: RecRecord, at: Date): Promise<void> {
    await m.query('INSERT INTO recurrences (client, id_rec, status, loc_id, activation_txid, record, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      client,
      rec.idRec,
      rec.status,
      rec.locId,
      rec.activationTxid,
      JSON.stringify(rec),
      at,
    ]);
  }

  async findRecurrenceByActivation(m: EntityManager, client: string, txid: string): Promise<RecRecord | undefined> {
    const rows: Row[] = await m.query('SELECT record FROM recurrences WHERE client = $1 AND activation_txid = $2', [client, txid]);
    return rows[0]?.record as RecRecord | undefined;
  }

  async updateRecurrence(m: EntityManager, client: string, rec: RecRecord): Promise<void> {
    await m.query('UPDATE recurrences SET status = $3, loc_id = $4, activation_txid = $5, record = $6 WHERE client = $1 AND id_rec = $2', [
      client,
      rec.idRec,
      rec.status,
      rec.locId,
      rec.activationTxid,
      JSON.stringify(rec),
    ]);
  }

  async insertSolicitation(m: EntityManager, client: string, s: SolicRecord, dueAt: Date | null): Promise<void> {
    await m.query('INSERT INTO solicitations (client, id_solic_rec, id_rec, status, due_at, record, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      client,
      s.idSolicRec,
      s.idRec,
      s.status,
      dueAt,
      JSON.stringify(s),
      s.createdAt,
    ]);
  }

  async findSolicitation(m: EntityManager, client: string, idSolicRec: string, lock = false): Promise<SolicRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM solicitations WHERE client = $1 AND id_solic_rec = $2${forUpdate(lock)}`, [client, idSolicRec]);
    return rows[0]?.record as SolicRecord | undefined;
  }

  async updateSolicitation(m: EntityManager, client: string, s: SolicRecord, dueAt: Date | null): Promise<void> {
    await m.query('UPDATE solicitations SET status = $3, due_at = $4, record = $5 WHERE client = $1 AND id_solic_rec = $2', [
      client,
      s.idSolicRec,
      s.status,
      dueAt,
      JSON.stringify(s),
    ]);
  }

  /** Solicitations whose next automatic step has fallen due, across clients. */
  async dueSolicitations(m: EntityManager, now: Date, limit: number): Promise<{ client: string; idSolicRec: string; idRec: string }[]> {
    const rows: Row[] = await m.query('SELECT client, id_solic_rec, id_rec FROM solicitations WHERE due_at <= $1 ORDER BY due_at LIMIT $2', [now, limit]);
    return rows.map((row) => ({ client: row.client as string, idSolicRec: row.id_solic_rec as string, idRec: row.id_rec as string }));
  }

  async insertCharge(m: EntityManager, client: string, cob: CobRecord): Promise<void> {
    await m.query('INSERT INTO charges (client, txid, record, created_at) VALUES ($1, $2, $3, $4)', [client, cob.txid, JSON.stringify(cob), cob.createdAt]);
  }

  async findCharge(m: EntityManager, client: string, txid: string, lock = false): Promise<CobRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM charges WHERE client = $1 AND txid = $2${forUpdate(lock)}`, [client, txid]);
    return rows[0]?.record as CobRecord | undefined;
  }

  async updateCharge(m: EntityManager, client: string, cob: CobRecord): Promise<void> {
    await m.query('UPDATE charges SET record = $3 WHERE client = $1 AND txid = $2', [client, cob.txid, JSON.stringify(cob)]);
  }

  /** The paid charge whose payment has this end-to-end id (GET /pix/{e2eid}). */
  async findChargeByEndToEndId(m: EntityManager, client: string, endToEndId: string): Promise<CobRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM charges WHERE client = $1 AND (record #>> '{payment,endToEndId}') = $2`, [client, endToEndId]);
    return rows[0]?.record as CobRecord | undefined;
  }

  async findRecurringCharge(m: EntityManager, client: string, txid: string, lock = false): Promise<CobRRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM recurring_charges WHERE client = $1 AND txid = $2${forUpdate(lock)}`, [client, txid]);
    return rows[0]?.record as CobRRecord | undefined;
  }

  async updateRecurringCharge(m: EntityManager, client: string, cobr: CobRRecord, dueOn: string | null): Promise<void> {
    await m.query('UPDATE recurring_charges SET status = $3, due_on = $4, record = $5 WHERE client = $1 AND txid = $2', [
      client,
      cobr.txid,
      cobr.status,
      dueOn,
      JSON.stringify(cobr),
    ]);
  }

  /** Recurrences by id, of their clients, locked in id order (the order every transaction takes them in); keyed by id. */
  async lockRecurrences(m: EntityManager, keys: { client: string; idRec: string }[]): Promise<Map<string, RecRecord>> {
    const rows: Row[] = await m.query(
      `SELECT r.id_rec, r.record FROM recurrences r JOIN unnest($1::text[], $2::text[]) AS k (client, id_rec) ON r.client = k.client AND r.id_rec = k.id_rec
        ORDER BY r.id_rec FOR UPDATE OF r`,
      [keys.map((k) => k.client), keys.map((k) => k.idRec)],
    );
    return new Map(rows.map((row) => [row.id_rec as string, row.record as RecRecord]));
  }

  /** The solicitations of these recurrences (locked), oldest first per recurrence; keyed by recurrence id. */
  async lockSolicitationsOf(m: EntityManager, keys: { client: string; idRec: string }[]): Promise<Map<string, SolicRecord[]>> {
    const rows: Row[] = await m.query(
      `SELECT s.id_rec, s.record FROM solicitations s JOIN unnest($1::text[], $2::text[]) AS k (client, id_rec) ON s.client = k.client AND s.id_rec = k.id_rec
        ORDER BY s.id_rec, s.created_at, s.id_solic_rec FOR UPDATE OF s`,
      [keys.map((k) => k.client), keys.map((k) => k.idRec)],
    );
    const byRec = new Map<string, SolicRecord[]>();
    for (const row of rows) {
      const list = byRec.get(row.id_rec as string) ?? [];
      if (list.length === 0) byRec.set(row.id_rec as string, list);
      list.push(row.record as SolicRecord);
    }
    return byRec;
  }

  /**
   * In one round trip, what would refuse each of some new recurring charges: its txid used by any of its client's
   * charges (immediate or recurring), and its recurrence's cycle already holding a charge not REJEITADA or CANCELADA
   * (the unique index's rows). In the order asked.
   */
  async recurringChargeConflicts(
    m: EntityManager,
    checks: { client: string; txid: string; cycle: { idRec: string; cycle: number } | undefined }[],
  ): Promise<{ txidInUse: boolean; cycleTaken: boolean }[]> {
    const rows: Row[] = await m.query(
      `SELECT EXISTS (SELECT 1 FROM recurring_charges r WHERE r.client = k.client AND r.txid = k.txid)
              OR EXISTS (SELECT 1 FROM charges c WHERE c.client = k.client AND c.txid = k.txid) AS txid_in_use,
              EXISTS (SELECT 1 FROM recurring_charges r WHERE r.id_rec = k.id_rec AND r.cycle = k.cycle AND r.status NOT IN ('REJEITADA', 'CANCELADA')) AS cycle_taken
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS k (client, txid, id_rec, cycle, n) ORDER BY k.n`,
      [checks.map((c) => c.client), checks.map((c) => c.txid), checks.map((c) => c.cycle?.idRec ?? null), checks.map((c) => c.cycle?.cycle ?? null)],
    );
    return rows.map((row) => ({ txidInUse: row.txid_in_use === true, cycleTaken: row.cycle_taken === true }));
  }

  async insertRecurringCharges(m: EntityManager, charges: { client: string; cobr: CobRRecord; dueOn: string | null }[]): Promise<void> {
    if (charges.length === 0) return;
    // The rows as one JSON document: each record goes in as it is, not escaped again into an array literal.
    await m.query(
      `INSERT INTO recurring_charges (client, txid, id_rec, status, cycle, due_on, record, created_at)
       SELECT client, txid, id_rec, status, cycle, due_on, record, created_at FROM jsonb_to_recordset($1::jsonb)
         AS c (client text, txid text, id_rec text, status text, cycle int, due_on date, record jsonb, created_at timestamptz)`,
      [
        JSON.stringify(
          charges.map((c) => ({
            client: c.client,
            txid: c.cobr.txid,
            id_rec: c.cobr.idRec,
            status: c.cobr.status,
            cycle: c.cobr.cycle,
            due_on: c.dueOn,
            record: c.cobr,
            created_at: c.cobr.createdAt,
          })),
        ),
      ],
    );
  }

  /** Recurring charges whose scheduled attempt is due on or before `today` (YYYY-MM-DD), across clients, earliest first. */
  async dueRecurringCharges(m: EntityManager, today: string, limit: number): Promise<{ client: string; txid: string }[]> {
    const rows: Row[] = await m.query('SELECT client, txid FROM recurring_charges WHERE due_on <= $1::date ORDER BY due_on LIMIT $2', [today, limit]);
    return rows.map((row) => ({ client: row.client as string, txid: row.txid as string }));
  }

  /** A new payout; false (and nothing written) when the client already has one with this idEnvio. */
  async insertPayout(m: EntityManager, client: string, p: PayoutRecord, dueAt: Date | null): Promise<boolean> {
    const rows: Row[] = await m.query(
      `INSERT INTO payouts (client, id_envio, status, due_at, record, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (client, id_envio) DO NOTHING RETURNING 1`,
      [client, p.idEnvio, p.status, dueAt, JSON.stringify(p), p.solicitacao],
    );
    return rows.length > 0;
  }

  async findPayout(m: EntityManager, client: string, idEnvio: string, lock = false): Promise<PayoutRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM payouts WHERE client = $1 AND id_envio = $2${forUpdate(lock)}`, [client, idEnvio]);
    return rows[0]?.record as PayoutRecord | undefined;
  }

  /** The payout, locked, if its automatic settlement is (still) due at `now`: the condition is checked again on the row it waited for. */
  async lockDuePayout(m: EntityManager, client: string, idEnvio: string, now: Date): Promise<PayoutRecord | undefined> {
    const rows: Row[] = await m.query('SELECT record FROM payouts WHERE client = $1 AND id_envio = $2 AND due_at <= $3 FOR UPDATE', [client, idEnvio, now]);
    return rows[0]?.record as PayoutRecord | undefined;
  }

  async updatePayout(m: EntityManager, client: string, p: PayoutRecord, dueAt: Date | null): Promise<void> {
    await m.query('UPDATE payouts SET status = $3, due_at = $4, record = $5 WHERE client = $1 AND id_envio = $2', [
      client,
      p.idEnvio,
      p.status,
      dueAt,
      JSON.stringify(p),
    ]);
  }

  /** Payouts whose automatic settlement has fallen due, across clients, earliest first. */
  async duePayouts(m: EntityManager, now: Date, limit: number): Promise<{ client: string; idEnvio: string }[]> {
    const rows: Row[] = await m.query('SELECT client, id_envio FROM payouts WHERE due_at <= $1 ORDER BY due_at LIMIT $2', [now, limit]);
    return rows.map((row) => ({ client: row.client as string, idEnvio: row.id_envio as string }));
  }

  async insertInfraction(m: EntityManager, client: string, r: InfractionRecord): Promise<void> {
    await m.query('INSERT INTO infractions (client, id, end_to_end_id, record) VALUES ($1, $2, $3, $4)', [client, r.id, r.endToEndId, JSON.stringify(r)]);
  }

  /** An infraction of the client's; locked when `lock`. */
  async findInfraction(m: EntityManager, client: string, id: string, lock = false): Promise<InfractionRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM infractions WHERE client = $1 AND id = $2${forUpdate(lock)}`, [client, id]);
    return rows[0]?.record as InfractionRecord | undefined;
  }

  async updateInfraction(m: EntityManager, client: string, r: InfractionRecord): Promise<void> {
    await m.query('UPDATE infractions SET record = $3 WHERE client = $1 AND id = $2', [client, r.id, JSON.stringify(r)]);
  }

  /** The refunds of one Pix, oldest first; locked when `lock` (a new one is judged against them). */
  async findRefunds(m: EntityManager, client: string, endToEndId: string, lock = false): Promise<RefundRecord[]> {
    const rows: Row[] = await m.query(
      `SELECT record FROM refunds WHERE client = $1 AND end_to_end_id = $2 ORDER BY record->>'solicitacao', id${forUpdate(lock)}`,
      [client, endToEndId],
    );
    return rows.map((row) => row.record as RefundRecord);
  }

  async insertRefund(m: EntityManager, client: string, r: RefundRecord, dueAt: Date | null): Promise<void> {
    await m.query('INSERT INTO refunds (client, end_to_end_id, id, status, due_at, record) VALUES ($1, $2, $3, $4, $5, $6)', [
      client,
      r.endToEndId,
      r.id,
      r.status,
      dueAt,
      JSON.stringify(r),
    ]);
  }

  /** The refund, locked; with `dueAt`, only if its automatic liquidation is (still) due then. */
  async lockRefund(m: EntityManager, client: string, endToEndId: string, id: string, dueAt?: Date): Promise<RefundRecord | undefined> {
    const rows: Row[] = await m.query(
      `SELECT record FROM refunds WHERE client = $1 AND end_to_end_id = $2 AND id = $3${dueAt ? ' AND due_at <= $4' : ''} FOR UPDATE`,
      dueAt ? [client, endToEndId, id, dueAt] : [client, endToEndId, id],
    );
    return rows[0]?.record as RefundRecord | undefined;
  }

  async updateRefund(m: EntityManager, client: string, r: RefundRecord, dueAt: Date | null): Promise<void> {
    await m.query('UPDATE refunds SET status = $4, due_at = $5, record = $6 WHERE client = $1 AND end_to_end_id = $2 AND id = $3', [
      client,
      r.endToEndId,
      r.id,
      r.status,
      dueAt,
      JSON.stringify(r),
    ]);
  }

  /** A refund by its rtrId, across clients, with the client it belongs to. */
  async findRefundByRtrId(m: EntityManager, rtrId: string): Promise<{ client: string; refund: RefundRecord } | undefined> {
    const rows: Row[] = await m.query(`SELECT client, record FROM refunds WHERE record->>'rtrId' = $1`, [rtrId]);
    return rows[0] && { client: rows[0].client as string, refund: rows[0].record as RefundRecord };
  }

  /** A payout by its end-to-end id, across clients. */
  async findPayoutByEndToEndId(m: EntityManager, endToEndId: string): Promise<PayoutRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM payouts WHERE record->>'endToEndId' = $1`, [endToEndId]);
    return rows[0]?.record as PayoutRecord | undefined;
  }

  /** The payout one of whose returns has this rtrId, across clients. */
  async findPayoutByReturn(m: EntityManager, rtrId: string): Promise<PayoutRecord | undefined> {
    const rows: Row[] = await m.query(`SELECT record FROM payouts WHERE record->'devolucoes' @> $1::jsonb`, [JSON.stringify([{ rtrId }])]);
    return rows[0]?.record as PayoutRecord | undefined;
  }

  /** Refunds whose automatic liquidation has fallen due, across clients, earliest first. */
  async dueRefunds(m: EntityManager, now: Date, limit: number): Promise<{ client: string; endToEndId: string; id: string }[]> {
    const rows: Row[] = await m.query('SELECT client, end_to_end_id, id FROM refunds WHERE due_at <= $1 ORDER BY due_at LIMIT $2', [now, limit]);
    return rows.map((row) => ({ client: row.client as string, endToEndId: row.end_to_end_id as string, id: row.id as string }));
  }

  async setPixWebhook(m: EntityManager, client: string, chave: string, url: string, at: Date): Promise<void> {
    await m.query(
      `INSERT INTO pix_webhooks (client, chave, webhook_url, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (client, chave) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, created_at = EXCLUDED.created_at`,
      [client, chave, url, at],
    );
  }

  async findPixWebhook(m: EntityManager, client: string, chave: string): Promise<{ webhookUrl: string; chave: string; criacao: string } | undefined> {
    const rows: Row[] = await m.query('SELECT webhook_url, created_at FROM pix_webhooks WHERE client = $1 AND chave = $2', [client, chave]);
    return rows[0] && { webhookUrl: rows[0].webhook_url as string, chave, criacao: (rows[0].created_at as Date).toISOString() };
  }

  /** Whether there was one to delete. */
  async deletePixWebhook(m: EntityManager, client: string, chave: string): Promise<boolean> {
    const rows: Row[] = await m.query(
      'WITH deleted AS (DELETE FROM pix_webhooks WHERE client = $1 AND chave = $2 RETURNING 1) SELECT count(*)::int AS n FROM deleted',
      [client, chave],
    );
    return (rows[0].n as number) > 0;
  }

  async setWebhook(m: EntityManager, kind: WebhookKind, client: string, url: string, at: Date): Promise<void> {
    await m.query(
      `INSERT INTO ${WEBHOOK_TABLES[kind]} (client, webhook_url, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (client) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, created_at = EXCLUDED.created_at`,
      [client, url, at],
    );
  }

  async findWebhook(m: EntityManager, kind: WebhookKind, client: string): Promise<{ webhookUrl: string; criacao: string } | undefined> {
    const rows: Row[] = await m.query(`SELECT webhook_url, created_at FROM ${WEBHOOK_TABLES[kind]} WHERE client = $1`, [client]);
    return rows[0] && { webhookUrl: rows[0].webhook_url as string, criacao: (rows[0].created_at as Date).toISOString() };
  }

  /** Whether there was one to delete. */
  async deleteWebhook(m: EntityManager, kind: WebhookKind, client: string): Promise<boolean> {
    const rows: Row[] = await m.query(
      `WITH deleted AS (DELETE FROM ${WEBHOOK_TABLES[kind]} WHERE client = $1 RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
      [client],
    );
    return (rows[0].n as number) > 0;
  }
}
