import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  Environment,
  MAX_WEBHOOK_ENDPOINTS,
  Tenant,
  WebhookEndpointCreatedResponse,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
  WebhookEventType,
} from '@pixauto/contracts';
import { newWebhookSecret, SecretBox } from '@pixauto/secrets';

// An account's webhook endpoints (docs/decisions/webhooks.md "Webhook endpoints"), one table in the dispatcher's
// database: the fan-out reads them in each batch's transaction, and a merchant reads its own write at once. Secrets are
// sealed in the row; only the dispatcher holds the keys that open them.

interface EndpointRow {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  event_types: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_valid_until: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface NewEndpoint {
  url: string;
  event_types: WebhookEventType[];
  description: string | null;
  enabled: boolean;
}

export type EndpointChange = Partial<NewEndpoint>;

const COLUMNS =
  'id, account_id, environment, url, event_types, description, enabled, secret, previous_secret, previous_valid_until, version, created_at, updated_at';

const responseOf = (row: EndpointRow): WebhookEndpointResponse => ({
  endpoint_id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  enabled: row.enabled,
  environment: row.environment,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Deduplicated, in the order given. */
export const eventTypesOf = (types: readonly WebhookEventType[] | undefined): WebhookEventType[] => [...new Set(types ?? [])];

export class WebhookEndpointStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
  ) {}

  /**
   * A new endpoint with a new secret; undefined when the tenant already has the most it may. The count and the insert
   * hold the tenant's advisory lock, so two creations at once cannot both pass the limit.
   */
  async create(tenant: Tenant, endpoint: NewEndpoint, at: Date): Promise<WebhookEndpointCreatedResponse | undefined> {
    const secret = newWebhookSecret();
    return this.dataSource.transaction(async (db) => {
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhook_endpoints:${tenant.accountId}:${tenant.environment}`]);
      const [{ count }]: { count: number }[] = await db.query(
        'SELECT count(*)::int AS count FROM webhook_endpoints WHERE account_id = $1 AND environment = $2',
        [tenant.accountId, tenant.environment],
      );
      if (count >= MAX_WEBHOOK_ENDPOINTS) return undefined;
      const [row]: EndpointRow[] = await db.query(
        `INSERT INTO webhook_endpoints (id, account_id, environment, url, event_types, description, enabled, secret, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $9) RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          tenant.accountId,
          tenant.environment,
          endpoint.url,
          endpoint.event_types,
          endpoint.description,
          endpoint.enabled,
          this.secretBox.seal(secret),
          at,
        ],
      );
      return { ...responseOf(row), secret };
    });
  }

  async list(tenant: Tenant): Promise<WebhookEndpointResponse[]> {
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND environment = $2 ORDER BY created_at, id`,
      [tenant.accountId, tenant.environment],
    );
    return rows.map(responseOf);
  }

  async get(tenant: Tenant, id: string): Promise<WebhookEndpointResponse | undefined> {
    const row = await this.row(this.dataSource.manager, tenant, id);
    return row && responseOf(row);
  }

  /**
   * Changes what is given. Disabling cancels the endpoint's pending deliveries (the log keeps them; a filtered retry
   * resends them); a new URL is where its pending deliveries go from then on. One transaction, the row locked first.
   */
  async update(tenant: Tenant, id: string, change: EndpointChange, at: Date): Promise<WebhookEndpointResponse | undefined> {
    return this.dataSource.transaction(async (db) => {
      const before = await this.row(db, tenant, id, true);
      if (!before) return undefined;
      const [[row]]: [EndpointRow[]] = await db.query(
        `UPDATE webhook_endpoints SET url = COALESCE($2, url), event_types = COALESCE($3, event_types),
           description = CASE WHEN $4 THEN $5 ELSE description END, enabled = COALESCE($6, enabled), version = version + 1, updated_at = $7
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, change.url ?? null, change.event_types ?? null, change.description !== undefined, change.description ?? null, change.enabled ?? null, at],
      );
      if (before.enabled && !row.enabled) await cancelPending(db, id, 'the webhook endpoint was disabled');
      else if (row.url !== before.url) await db.query(`UPDATE webhook_deliveries SET url = $2 WHERE endpoint_id = $1 AND status = 'pending'`, [id, row.url]);
      return responseOf(row);
    });
  }

  /** Deletes the endpoint and cancels its pending deliveries; the log keeps every delivery it had. */
  async delete(tenant: Tenant, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    return this.dataSource.transaction(async (db) => {
      const [, count]: [unknown, number] = await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND environment = $3', [
        id,
        tenant.accountId,
        tenant.environment,
      ]);
      if (count === 0) return false;
      await cancelPending(db, id, 'the webhook endpoint was deleted');
      return true;
    });
  }

  /** The secret in clear, and until when (real time, `now`) the previous one still signs. */
  async secret(tenant: Tenant, id: string, now: Date): Promise<WebhookEndpointSecretResponse | undefined> {
    const row = await this.row(this.dataSource.manager, tenant, id);
    return row && this.secretOf(row, now);
  }

  /** A new secret; the current one signs beside it for `overlapHours` from `now` (real time: signatures are made at it). */
  async rotate(tenant: Tenant, id: string, overlapHours: number, now: Date, at: Date): Promise<WebhookEndpointSecretResponse | undefined> {
    if (!UUID.test(id)) return undefined;
    const until = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null;
    const [[row]]: [EndpointRow[]] = await this.dataSource.query(
      `UPDATE webhook_endpoints SET secret = $4, previous_secret = CASE WHEN $5::timestamptz IS NULL THEN NULL ELSE secret END,
         previous_valid_until = $5, version = version + 1, updated_at = $6
       WHERE id = $1 AND account_id = $2 AND environment = $3 RETURNING ${COLUMNS}`,
      [id, tenant.accountId, tenant.environment, this.secretBox.seal(newWebhookSecret()), until, at],
    );
    return row && this.secretOf(row, now);
  }

  private secretOf(row: EndpointRow, now: Date): WebhookEndpointSecretResponse {
    return {
      secret: this.secretBox.open(row.secret),
      previous_secret_valid_until: stillSigning(row, now) ? (row.previous_valid_until as Date).toISOString() : null,
    };
  }

  private async row(db: EntityManager, tenant: Tenant, id: string, lock = false): Promise<EndpointRow | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row]: EndpointRow[] = await db.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND environment = $3${lock ? ' FOR UPDATE' : ''}`,
      [id, tenant.accountId, tenant.environment],
    );
    return row;
  }
}

const stillSigning = (row: EndpointRow, now: Date): boolean =>
  row.previous_secret !== null && row.previous_valid_until !== null && row.previous_valid_until > now;

async function cancelPending(db: EntityManager, endpointId: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, retry_requested = false, last_error = $2
     WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, reason],
  );
}
