import { EntityManager } from 'typeorm';
import { AccountEventTypes, AccountOpenedData, EventEnvelope, rotatedEnvironmentOf, WebhookSecretRotatedData } from '@pixauto/contracts';
import {
  Notification,
  notificationOf,
  recordWebhookEvent,
  RECURRENCE_STREAM_EVENT_TYPES,
  RECORD_EVENT_TYPES,
  recurrenceStreamStep,
  WebhookChange,
  WebhookEvent,
} from './notifications';
import { EndpointTarget, endpointNotifications } from './endpoint-fanout';

// From the followed topics to deliveries, in one transaction per fetched batch: the accounts' secrets, the new
// deliveries (to each resource's webhook and to every enabled webhook endpoint that takes the event) and the pending
// ones a webhook change ends. Every event carries its record, so none waits for another. Idempotent: a delivery's id
// is its event's (and its endpoint's), and a webhook change ends only deliveries of events before it, so a
// redelivered batch changes nothing.

/** What a new delivery needs to be sent at once by the instance that created it. */
export interface DeliveryToSend {
  id: string;
  account_id: string;
  environment: 'production' | 'sandbox';
  group_id: string;
  sequence: number;
  url: string;
  /** The webhook endpoint it is for (signed with that endpoint's secrets); null: a resource's own webhook. */
  endpoint_id: string | null;
  payload: string;
  scheduled_attempts: number;
  retry_requested: boolean;
  leased_until: Date;
}

export const FOLLOWED_EVENT_TYPES: readonly string[] = [
  ...RECURRENCE_STREAM_EVENT_TYPES,
  ...RECORD_EVENT_TYPES,
  AccountEventTypes.opened,
  AccountEventTypes.webhookSecretRotated,
];

const RECURRENCE_TYPES = new Set(RECURRENCE_STREAM_EVENT_TYPES);

/** What a batch made: the deliveries created, and every webhook event of it, a URL or not (for the sandbox's listeners). */
export interface TakenEvents {
  deliveries: DeliveryToSend[];
  webhookEvents: WebhookEvent[];
}

/**
 * Applies a batch of followed events; the deliveries it created are leased to the caller until `leaseUntil` (real
 * time), so that it sends them without a second round trip.
 */
export async function takeEvents(db: EntityManager, events: EventEnvelope[], leaseUntil: Date): Promise<TakenEvents> {
  const webhookEvents: WebhookEvent[] = [];
  const replaced: (WebhookChange & { account_id: string; environment: string })[] = [];
  for (const event of events) {
    if (RECURRENCE_TYPES.has(event.type)) {
      const step = recurrenceStreamStep(event);
      if (step) webhookEvents.push(step.event);
      if (step?.webhookChange) replaced.push({ account_id: event.tenant.account_id, environment: event.tenant.environment, ...step.webhookChange });
      continue;
    }
    if (event.type === AccountEventTypes.opened || event.type === AccountEventTypes.webhookSecretRotated) await takeAccountEvent(db, event);
    const webhookEvent = recordWebhookEvent(event);
    if (webhookEvent) webhookEvents.push(webhookEvent);
  }
  const endpoints = webhookEvents.length > 0 ? await enabledEndpointsOf(db, webhookEvents) : [];
  const notifications = [...webhookEvents.flatMap((event) => notificationOf(event) ?? []), ...endpointNotifications(webhookEvents, endpoints)];
  const created = notifications.length > 0 ? await insertDeliveries(db, notifications, leaseUntil) : [];
  for (const change of replaced) {
    await db.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, retry_requested = false,
         last_error = CASE WHEN $4::text IS NULL THEN 'the webhook was cleared' ELSE 'the webhook was replaced' END
       WHERE account_id = $1 AND environment = $2 AND group_id = $3 AND status = 'pending' AND url IS DISTINCT FROM $4 AND sequence < $5`,
      [change.account_id, change.environment, change.group_id, change.url, change.version],
    );
  }
  const deliveries = created.filter((d) => !replaced.some((r) => r.group_id === d.group_id && r.url !== d.url && d.sequence < r.version));
  return { deliveries, webhookEvents };
}

/**
 * The signing secrets, one per environment, follow the account's stream by version (a redelivered or older event
 * changes nothing). An account opened when one secret signed both environments has only production's until its
 * sandbox secret is issued; a rotation recorded then, without an environment, was production's.
 */
async function takeAccountEvent(db: EntityManager, event: EventEnvelope): Promise<void> {
  if (event.type === AccountEventTypes.opened) {
    const data = event.data as AccountOpenedData;
    const secrets: [string, string][] = [['production', data.webhook_secret]];
    if (data.sandbox_webhook_secret !== undefined) secrets.push(['sandbox', data.sandbox_webhook_secret]);
    await db.query(
      `INSERT INTO webhook_secrets (account_id, environment, secret, version) SELECT $1, e, s, $4 FROM unnest($2::text[], $3::text[]) AS u(e, s)
       ON CONFLICT (account_id, environment) DO NOTHING`,
      [data.account_id, secrets.map(([environment]) => environment), secrets.map(([, secret]) => secret), event.version],
    );
    return;
  }
  const data = event.data as WebhookSecretRotatedData;
  await db.query(
    `INSERT INTO webhook_secrets AS s (account_id, environment, secret, previous_secret, previous_valid_until, version) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id, environment) DO UPDATE SET secret = EXCLUDED.secret, previous_secret = EXCLUDED.previous_secret,
       previous_valid_until = EXCLUDED.previous_valid_until, version = EXCLUDED.version
     WHERE s.version < EXCLUDED.version`,
    [event.tenant.account_id, rotatedEnvironmentOf(data), data.webhook_secret, data.previous_secret, data.previous_valid_until, event.version],
  );
}

/**
 * The enabled endpoints of every tenant of the batch, in one query. Locked (FOR SHARE) until the batch commits: an
 * endpoint disabled or deleted meanwhile waits for it, and then cancels the deliveries it made; one disabled or
 * deleted first is not seen here.
 */
async function enabledEndpointsOf(db: EntityManager, events: WebhookEvent[]): Promise<EndpointTarget[]> {
  const tenants = [...new Set(events.map((e) => `${e.tenant.accountId}\u0000${e.tenant.environment}`))].map((key) => key.split('\u0000'));
  return db.query(
    `SELECT e.id, e.account_id, e.environment, e.url, e.event_types FROM webhook_endpoints e
     WHERE e.enabled AND (e.account_id, e.environment) IN (SELECT a, v FROM unnest($1::text[], $2::text[]) AS t(a, v))
     ORDER BY e.id FOR SHARE OF e`,
    [tenants.map(([account]) => account), tenants.map(([, environment]) => environment)],
  );
}

/** New deliveries, due now; one to a (resource, URL) that answered 410 Gone is recorded as failed and never sent. */
export async function insertDeliveries(db: EntityManager, notifications: Notification[], leaseUntil: Date): Promise<DeliveryToSend[]> {
  const n = notifications;
  const rows: (Omit<DeliveryToSend, 'leased_until'> & { leased_until: Date | null })[] = await db.query(
    `INSERT INTO webhook_deliveries AS d (id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload,
       status, next_attempt_at, last_error, created_at, leased_until, endpoint_id)
     SELECT u.id, u.account_id, u.environment, u.event_type, u.resource_type, u.resource_id, u.group_id, u.sequence, u.url, u.payload,
       CASE WHEN g.url IS NULL THEN 'pending' ELSE 'failed' END,
       CASE WHEN g.url IS NULL THEN u.created_at END,
       CASE WHEN g.url IS NULL THEN NULL ELSE 'HTTP 410 Gone: deliveries of this resource to this URL stopped' END,
       u.created_at,
       CASE WHEN g.url IS NULL THEN $12::timestamptz END,
       u.endpoint_id
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[], $11::timestamptz[], $13::uuid[])
       AS u(id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload, created_at, endpoint_id)
     LEFT JOIN webhook_gone g ON g.account_id = u.account_id AND g.environment = u.environment AND g.group_id = u.group_id AND g.url = u.url
     ON CONFLICT (id) DO NOTHING
     RETURNING d.id, d.account_id, d.environment, d.group_id, d.sequence, d.url, d.endpoint_id, d.payload, d.scheduled_attempts, d.retry_requested, d.leased_until`,
    [
      n.map((x) => x.id),
      n.map((x) => x.tenant.accountId),
      n.map((x) => x.tenant.environment),
      n.map((x) => x.event_type),
      n.map((x) => x.resource_type),
      n.map((x) => x.resource_id),
      n.map((x) => x.group_id),
      n.map((x) => x.sequence),
      n.map((x) => x.url),
      n.map((x) => JSON.stringify(x.payload)),
      n.map((x) => x.payload.timestamp),
      leaseUntil,
      n.map((x) => x.endpoint_id ?? null),
    ],
  );
  return rows.filter((r): r is DeliveryToSend => r.leased_until !== null);
}
