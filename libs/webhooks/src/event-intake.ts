import { EntityManager } from 'typeorm';
import { AccountEventTypes, AccountOpenedData, EventEnvelope, rotatedEnvironmentOf, WebhookSecretRotatedData } from '@pixauto/contracts';
import {
  foldRecurrenceEvent,
  INITIAL_RECURRENCE_FOLD,
  Notification,
  recordNotification,
  RecurrenceFold,
  RECURRENCE_STREAM_EVENT_TYPES,
  RECORD_EVENT_TYPES,
  FoldStep,
  WebhookChange,
} from './notifications';

// From the followed topics to deliveries, in one transaction per fetched batch: the recurrence folds, the accounts'
// secrets, the new deliveries and the pending ones a webhook change ends. Idempotent: a delivery's id is its
// event's, and a fold only takes the version after its own, so a redelivered batch changes nothing.

/** What a new delivery needs to be sent at once by the instance that created it. */
export interface DeliveryToSend {
  id: string;
  account_id: string;
  environment: 'production' | 'sandbox';
  group_id: string;
  sequence: number;
  url: string;
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

/**
 * Applies a batch of followed events; returns the deliveries created, leased to the caller until `leaseUntil` (real
 * time) so it sends them without a second round trip. Events of a recurrence stream that arrive ahead of their
 * order (its charges travel on another topic) wait in the inbox until the gap is filled.
 */
export async function takeEvents(db: EntityManager, events: EventEnvelope[], leaseUntil: Date): Promise<DeliveryToSend[]> {
  const notifications: Notification[] = [];
  const replaced: (WebhookChange & { account_id: string; environment: string })[] = [];
  const recurrenceEvents = events.filter((e) => RECURRENCE_TYPES.has(e.type));
  if (recurrenceEvents.length > 0) {
    for (const applied of await foldStreams(db, recurrenceEvents)) {
      if (applied.step.notification) notifications.push(applied.step.notification);
      const change = applied.step.webhookChange;
      if (change) replaced.push({ account_id: applied.event.tenant.account_id, environment: applied.event.tenant.environment, ...change });
    }
  }
  for (const event of events) {
    if (RECURRENCE_TYPES.has(event.type)) continue;
    if (event.type === AccountEventTypes.opened || event.type === AccountEventTypes.webhookSecretRotated) await takeAccountEvent(db, event);
    const notification = recordNotification(event);
    if (notification) notifications.push(notification);
  }
  const created = notifications.length > 0 ? await insertDeliveries(db, notifications, leaseUntil) : [];
  for (const change of replaced) {
    await db.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, retry_requested = false,
         last_error = CASE WHEN $4::text IS NULL THEN 'the webhook was cleared' ELSE 'the webhook was replaced' END
       WHERE account_id = $1 AND environment = $2 AND group_id = $3 AND status = 'pending' AND url IS DISTINCT FROM $4`,
      [change.account_id, change.environment, change.group_id, change.url],
    );
  }
  return created.filter((d) => !replaced.some((r) => r.group_id === d.group_id && r.url !== d.url));
}

/** The recurrence streams' events applied in version order to their folds (row-locked: another batch may hold the same stream). */
async function foldStreams(db: EntityManager, events: EventEnvelope[]): Promise<{ event: EventEnvelope; step: FoldStep }[]> {
  const streamIds = [...new Set(events.map((e) => e.stream_id))].sort();
  await db.query(`INSERT INTO webhook_streams (stream_id, version, fold) SELECT unnest($1::text[]), 0, $2::jsonb ON CONFLICT DO NOTHING`, [
    streamIds,
    JSON.stringify(INITIAL_RECURRENCE_FOLD),
  ]);
  const rows: { stream_id: string; version: number; fold: RecurrenceFold }[] = await db.query(
    'SELECT stream_id, version, fold FROM webhook_streams WHERE stream_id = ANY($1) ORDER BY stream_id FOR UPDATE',
    [streamIds],
  );
  // UPDATE and DELETE answer [rows, count] through TypeORM.
  const [waiting]: [{ stream_id: string; envelope: EventEnvelope }[]] = await db.query(
    'DELETE FROM webhook_inbox WHERE stream_id = ANY($1) RETURNING stream_id, envelope',
    [streamIds],
  );
  const applied: { event: EventEnvelope; step: FoldStep }[] = [];
  const early: EventEnvelope[] = [];
  const updates: { stream_id: string; version: number; fold: RecurrenceFold }[] = [];
  for (const row of rows) {
    const byVersion = new Map<number, EventEnvelope>();
    for (const w of waiting) if (w.stream_id === row.stream_id) byVersion.set(w.envelope.version, w.envelope);
    for (const e of events) if (e.stream_id === row.stream_id && e.version > row.version) byVersion.set(e.version, e);
    let { version, fold } = row;
    for (let next = byVersion.get(version + 1); next; next = byVersion.get(version + 1)) {
      const step = foldRecurrenceEvent(fold, next);
      fold = step.fold;
      version = next.version;
      applied.push({ event: next, step });
      byVersion.delete(next.version);
    }
    early.push(...byVersion.values());
    if (version !== row.version) updates.push({ stream_id: row.stream_id, version, fold });
  }
  if (updates.length > 0) {
    await db.query(
      `UPDATE webhook_streams s SET version = u.version, fold = u.fold
       FROM unnest($1::text[], $2::int[], $3::jsonb[]) AS u(stream_id, version, fold) WHERE s.stream_id = u.stream_id`,
      [updates.map((u) => u.stream_id), updates.map((u) => u.version), updates.map((u) => JSON.stringify(u.fold))],
    );
  }
  if (early.length > 0) {
    await db.query(`INSERT INTO webhook_inbox (stream_id, version, envelope) SELECT * FROM unnest($1::text[], $2::int[], $3::jsonb[]) ON CONFLICT DO NOTHING`, [
      early.map((e) => e.stream_id),
      early.map((e) => e.version),
      early.map((e) => JSON.stringify(e)),
    ]);
  }
  return applied;
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

/** New deliveries, due now; one to a (resource, URL) that answered 410 Gone is recorded as failed and never sent. */
export async function insertDeliveries(db: EntityManager, notifications: Notification[], leaseUntil: Date): Promise<DeliveryToSend[]> {
  const n = notifications;
  const rows: (Omit<DeliveryToSend, 'leased_until'> & { leased_until: Date | null })[] = await db.query(
    `INSERT INTO webhook_deliveries AS d (id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload,
       status, next_attempt_at, last_error, created_at, leased_until)
     SELECT u.id, u.account_id, u.environment, u.event_type, u.resource_type, u.resource_id, u.group_id, u.sequence, u.url, u.payload,
       CASE WHEN g.url IS NULL THEN 'pending' ELSE 'failed' END,
       CASE WHEN g.url IS NULL THEN u.created_at END,
       CASE WHEN g.url IS NULL THEN NULL ELSE 'HTTP 410 Gone: deliveries of this resource to this URL stopped' END,
       u.created_at,
       CASE WHEN g.url IS NULL THEN $12::timestamptz END
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[], $11::timestamptz[])
       AS u(id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload, created_at)
     LEFT JOIN webhook_gone g ON g.account_id = u.account_id AND g.environment = u.environment AND g.group_id = u.group_id AND g.url = u.url
     ON CONFLICT (id) DO NOTHING
     RETURNING d.id, d.account_id, d.environment, d.group_id, d.sequence, d.url, d.payload, d.scheduled_attempts, d.retry_requested, d.leased_until`,
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
    ],
  );
  return rows.filter((r): r is DeliveryToSend => r.leased_until !== null);
}
