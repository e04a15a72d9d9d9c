import { DataSource, EntityManager } from 'typeorm';
import {
  DeliveriesDailyTotals,
  DeliveryAttemptResponse,
  DeliveryListResponse,
  DeliveryResponse,
  DeliveryStatus,
  DeliverySummaryResponse,
  Environment,
  ReportDays,
  reportPeriod,
  Tenant,
} from '@pixauto/contracts';
import { tenantNowSql } from '@pixauto/runtime';
import { DeliveryChange } from './attempt-outcome';
import { DeliveryToSend } from './event-intake';

// The deliveries table's every other use: claiming what is due, recording attempts, and the merchant's reads.

/** The failed deliveries of a tenant's period (docs/api/reports.md). */
export const FAILED_IN_PERIOD = `SELECT count(*)::int AS failed FROM webhook_deliveries
  WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 AND status = 'failed'`;

const SENDABLE = 'id, account_id, environment, group_id, sequence, url, endpoint_id, payload, scheduled_attempts, retry_requested, leased_until';

/** One attempt as made: tenant times for the log, real latency. */
export interface AttemptRecord {
  id: string;
  manual: boolean;
  attemptedAt: Date;
  url: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  change: DeliveryChange;
}

export class DeliveryStore {
  constructor(private readonly dataSource: DataSource) {}

  private get db(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Leases up to `limit` deliveries whose attempt is due in their tenant's clock (or asked for by hand) and that no
   * one holds. The due scan is bounded by the furthest test clock, so it reads the index, not every pending row.
   * Rows another dispatcher is leasing at this instant are skipped (SKIP LOCKED), so replicas claim side by side.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DeliveryToSend[]> {
    return this.db
      .query(
        `WITH horizon AS (SELECT $1::timestamptz + COALESCE(max(offset_ms), 0) * interval '1 millisecond' AS at FROM tenant_clocks),
       due AS (
         SELECT id FROM (SELECT d.id FROM webhook_deliveries d, horizon
           WHERE d.next_attempt_at <= horizon.at AND d.next_attempt_at <= ${tenantNowSql('$1', 'd.account_id', 'd.environment')}
             AND (d.leased_until IS NULL OR d.leased_until < $1)
           ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE OF d SKIP LOCKED) AS at_time
         UNION
         SELECT id FROM (SELECT d.id FROM webhook_deliveries d WHERE d.retry_requested AND (d.leased_until IS NULL OR d.leased_until < $1) LIMIT $3 FOR UPDATE SKIP LOCKED) AS asked
       )
       UPDATE webhook_deliveries d SET leased_until = $2 FROM due
       WHERE d.id = due.id AND (d.leased_until IS NULL OR d.leased_until < $1)
       RETURNING ${SENDABLE.split(', ')
         .map((c) => `d.${c}`)
         .join(', ')}`,
        [now, leaseUntil, limit],
      )
      .then(([rows]: [DeliveryToSend[]]) => rows);
  }

  /** Extends a lease still held (a delivery that waited in memory); false when it was lost meanwhile. */
  async renewLease(delivery: DeliveryToSend, now: Date, leaseUntil: Date): Promise<boolean> {
    const [, count]: [unknown, number] = await this.db.query(
      'UPDATE webhook_deliveries SET leased_until = $3 WHERE id = $1 AND leased_until = $2 AND leased_until > $4',
      [delivery.id, delivery.leased_until, leaseUntil, now],
    );
    if (count === 1) delivery.leased_until = leaseUntil;
    return count === 1;
  }

  /** Gives a delivery back without an attempt: its endpoint is down; its next attempt waits until `notBefore` (tenant time). */
  async defer(id: string, notBefore: Date): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET leased_until = NULL, next_attempt_at = CASE WHEN status = 'pending' THEN GREATEST(next_attempt_at, $2) END WHERE id = $1`,
      [id, notBefore],
    );
  }

  /**
   * The attempt and what it does to its delivery, in one statement. A delivery cancelled while its attempt was out
   * stays cancelled unless the attempt delivered it.
   */
  async recordAttempt(a: AttemptRecord, tenantNow: Date): Promise<void> {
    const c = a.change;
    const scheduled = a.manual ? 0 : 1;
    const [status, nextAt, error, deliveredAt] =
      c.status === 'delivered'
        ? ['delivered', null, null, a.attemptedAt]
        : c.status === 'retry'
          ? ['pending', new Date(tenantNow.getTime() + c.delayMs), c.error, null]
          : c.status === 'unchanged'
            ? [null, null, c.error, null]
            : ['failed', null, c.error, null];
    // One statement (one round trip) per attempt; a 410 adds its two in the same transaction.
    const record = (db: EntityManager) =>
      db.query(
        `WITH attempt AS (
           INSERT INTO webhook_attempts (delivery_id, number, attempted_at, url, status_code, error, latency_ms, response_body, trigger)
           SELECT id, attempt_count + 1, $2, $3, $4, $5, $6, $7, $8 FROM webhook_deliveries WHERE id = $1
         )
         UPDATE webhook_deliveries SET
           attempt_count = attempt_count + 1,
           scheduled_attempts = scheduled_attempts + $9,
           status = CASE WHEN $10::text IS NULL THEN status WHEN status = 'cancelled' AND $10 <> 'delivered' THEN status ELSE $10 END,
           next_attempt_at = CASE WHEN $10::text IS NULL THEN next_attempt_at WHEN status = 'cancelled' AND $10 <> 'delivered' THEN NULL ELSE $11::timestamptz END,
           last_error = CASE WHEN $10::text IS NULL OR status <> 'cancelled' OR $10 = 'delivered' THEN $12 ELSE last_error END,
           delivered_at = COALESCE($13, delivered_at),
           retry_requested = CASE WHEN $8 = 'manual' THEN false ELSE retry_requested END,
           leased_until = NULL
         WHERE id = $1`,
        [
          a.id,
          a.attemptedAt,
          a.url,
          a.statusCode,
          a.error,
          a.latencyMs,
          a.responseBody,
          a.manual ? 'manual' : 'schedule',
          scheduled,
          status,
          nextAt,
          error,
          deliveredAt,
        ],
      );
    if (c.status !== 'gone') {
      await record(this.db);
      return;
    }
    await this.dataSource.transaction(async (db) => {
      await record(db);
      // 410: this URL takes nothing more for this resource; what waits for it stops, and later events are not sent.
      await db.query(
        `INSERT INTO webhook_gone (account_id, environment, group_id, url) SELECT account_id, environment, group_id, url FROM webhook_deliveries WHERE id = $1
         ON CONFLICT DO NOTHING`,
        [a.id],
      );
      await db.query(
        `UPDATE webhook_deliveries o SET status = 'failed', next_attempt_at = NULL, retry_requested = false, last_error = $2
         FROM webhook_deliveries d WHERE d.id = $1 AND o.account_id = d.account_id AND o.environment = d.environment AND o.group_id = d.group_id
           AND o.url = d.url AND o.status = 'pending'`,
        [a.id, c.error],
      );
    });
  }

  /**
   * The secrets that sign an account's webhooks of one environment: its current one, and the replaced one while it
   * still signs. Never the other environment's: a sandbox webhook must not verify with the production secret.
   */
  async secretsOf(accountId: string, environment: Environment, now: Date): Promise<string[]> {
    const [row]: { secret: string; previous_secret: string | null; previous_valid_until: Date | null }[] = await this.db.query(
      'SELECT secret, previous_secret, previous_valid_until FROM webhook_secrets WHERE account_id = $1 AND environment = $2',
      [accountId, environment],
    );
    if (!row) return [];
    return row.previous_secret && row.previous_valid_until && row.previous_valid_until > now ? [row.secret, row.previous_secret] : [row.secret];
  }

  /**
   * Where a delivery to a webhook endpoint goes now and what signs it (sealed): the endpoint's current URL and secret,
   * and its previous secret while a rotation's overlap lasts. Read at each attempt, never cached: a rotation or a new
   * URL holds from the next attempt on, on every replica. Undefined once the endpoint is deleted.
   */
  async endpointSigning(endpointId: string, now: Date): Promise<{ url: string; enabled: boolean; secrets: string[] } | undefined> {
    const [row]: { url: string; enabled: boolean; secret: string; previous_secret: string | null; previous_valid_until: Date | null }[] = await this.db.query(
      'SELECT url, enabled, secret, previous_secret, previous_valid_until FROM webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    if (!row) return undefined;
    const overlap = row.previous_secret !== null && row.previous_valid_until !== null && row.previous_valid_until > now;
    return { url: row.url, enabled: row.enabled, secrets: overlap ? [row.secret, row.previous_secret as string] : [row.secret] };
  }

  /** Ends a delivery without an attempt (its endpoint was deleted or disabled while it waited). */
  async cancel(id: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END, next_attempt_at = NULL,
         last_error = CASE WHEN status = 'pending' THEN $2 ELSE last_error END, retry_requested = false, leased_until = NULL
       WHERE id = $1`,
      [id, reason],
    );
  }

  async list(tenant: Tenant, query: DeliveryQuery): Promise<DeliveryListResponse> {
    const { condition, params } = filterSql(tenant, query);
    const [{ total }]: { total: number }[] = await this.db.query(`SELECT count(*)::int AS total FROM webhook_deliveries WHERE ${condition}`, params);
    const rows: DeliveryRow[] = await this.db.query(
      `SELECT ${SUMMARY} FROM webhook_deliveries WHERE ${condition} ORDER BY created_at DESC, id DESC LIMIT ${query.page_size} OFFSET ${query.page * query.page_size}`,
      params,
    );
    return {
      pagination: { current_page: query.page, page_size: query.page_size, total_pages: Math.ceil(total / query.page_size), total_items: total },
      deliveries: rows.map(summaryOf),
    };
  }

  /**
   * GET /v2/reports/daily-totals, the dispatcher's part: the deliveries created in the period whose every attempt was
   * refused, a range of webhook_deliveries_by_tenant.
   */
  async dailyTotals(tenant: Tenant, days: ReportDays): Promise<DeliveriesDailyTotals> {
    const { from, to } = reportPeriod(days);
    const [{ failed }]: { failed: number }[] = await this.db.query(FAILED_IN_PERIOD, [tenant.accountId, tenant.environment, from, to]);
    return { failed };
  }

  async get(tenant: Tenant, id: string): Promise<DeliveryResponse | undefined> {
    const [row]: (DeliveryRow & { payload: string })[] = await this.db.query(
      `SELECT ${SUMMARY}, payload FROM webhook_deliveries WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [tenant.accountId, tenant.environment, id],
    );
    if (!row) return undefined;
    const attempts: AttemptRow[] = await this.db.query(
      'SELECT number, attempted_at, url, status_code, error, latency_ms, response_body, trigger FROM webhook_attempts WHERE delivery_id = $1 ORDER BY number',
      [id],
    );
    return { ...summaryOf(row), payload: JSON.parse(row.payload), attempts: attempts.map(attemptOf) };
  }

  /** POST .../retry: one attempt now, outside the schedule. Undefined when the tenant has no such delivery. */
  async requestRetry(tenant: Tenant, id: string): Promise<DeliveryResponse | undefined> {
    await this.db.query('UPDATE webhook_deliveries SET retry_requested = true WHERE account_id = $1 AND environment = $2 AND id = $3', [
      tenant.accountId,
      tenant.environment,
      id,
    ]);
    return this.get(tenant, id);
  }

  /**
   * POST .../retry with filters: what matches is asked one attempt each, `batchSize` rows per statement, in id order
   * (byte-wise, as JavaScript compares them), so a long run never holds many row locks at once; claimDue then sends
   * them at the dispatcher's own pace. A delivery matched twice (a repeated request) still gets one attempt: the flag
   * is set, not counted. Answers how many matched.
   */
  async requestRetryMatching(tenant: Tenant, filters: DeliveryFilters, batchSize: number): Promise<number> {
    const { condition, params } = filterSql(tenant, filters);
    let queued = 0;
    let after = '';
    for (;;) {
      const [rows]: [{ id: string }[]] = await this.db.query(
        `UPDATE webhook_deliveries SET retry_requested = true WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE ${condition} AND id COLLATE "C" > $${params.length + 1} ORDER BY id COLLATE "C" LIMIT ${batchSize}
         ) RETURNING id`,
        [...params, after],
      );
      queued += rows.length;
      if (rows.length < batchSize) return queued;
      after = rows.reduce((last, row) => (row.id > last ? row.id : last), after);
    }
  }
}

export interface DeliveryFilters {
  resource_id?: string;
  endpoint_id?: string;
  event_type?: string;
  status?: DeliveryStatus;
  start?: Date;
  end?: Date;
}

export interface DeliveryQuery extends DeliveryFilters {
  page: number;
  page_size: number;
}

/** The WHERE of a tenant's deliveries matching the filters, with its parameters. */
function filterSql(tenant: Tenant, filters: DeliveryFilters): { condition: string; params: unknown[] } {
  const where = ['account_id = $1', 'environment = $2'];
  const params: unknown[] = [tenant.accountId, tenant.environment];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filters.resource_id !== undefined) add((n) => `resource_id = ${n}`, filters.resource_id);
  if (filters.endpoint_id !== undefined) add((n) => `endpoint_id = ${n}::uuid`, filters.endpoint_id);
  if (filters.event_type !== undefined) add((n) => `event_type = ${n}`, filters.event_type);
  if (filters.status !== undefined) add((n) => `status = ${n}`, filters.status);
  if (filters.start !== undefined) add((n) => `created_at >= ${n}`, filters.start);
  if (filters.end !== undefined) add((n) => `created_at < ${n}`, filters.end);
  return { condition: where.join(' AND '), params };
}

const SUMMARY = 'id, event_type, resource_type, resource_id, url, endpoint_id, status, attempt_count, next_attempt_at, last_error, created_at, delivered_at';

/** The rows as PostgreSQL gives them: the responses' fields, with Dates for the times. */
type DeliveryRow = Omit<DeliverySummaryResponse, 'next_attempt_at' | 'created_at' | 'delivered_at'> & {
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
};
type AttemptRow = Omit<DeliveryAttemptResponse, 'attempted_at'> & { attempted_at: Date };

const summaryOf = (row: DeliveryRow): DeliverySummaryResponse => ({
  ...row,
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  delivered_at: row.delivered_at?.toISOString() ?? null,
});

const attemptOf = (row: AttemptRow): DeliveryAttemptResponse => ({ ...row, attempted_at: row.attempted_at.toISOString() });
