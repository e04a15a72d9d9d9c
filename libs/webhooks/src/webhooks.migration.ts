import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher's database: deliveries and their attempts (the merchant's delivery log), the recurrence folds that
 * give a webhook its body, events that arrived ahead of their stream's order, the accounts' signing secrets and the
 * (resource, URL) pairs that answered 410 Gone. Times of a tenant's deliveries are in its clock (the sandbox's test
 * clock); `leased_until` alone is real time (which instance is sending it, until when).
 */
export class WebhookDeliveries1763800000800 implements MigrationInterface {
  name = 'WebhookDeliveries1763800000800';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id                 text PRIMARY KEY,
        account_id         text NOT NULL,
        environment        text NOT NULL,
        event_type         text NOT NULL,
        resource_type      text NOT NULL,
        resource_id        text NOT NULL,
        group_id           text NOT NULL,
        sequence           integer NOT NULL,
        url                text NOT NULL,
        payload            text NOT NULL,
        status             text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempt_count      integer NOT NULL DEFAULT 0,
        scheduled_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at    timestamptz,
        retry_requested    boolean NOT NULL DEFAULT false,
        leased_until       timestamptz,
        last_error         text,
        created_at         timestamptz NOT NULL,
        delivered_at       timestamptz,
        CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
      )`);
    await db.query('CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL');
    await db.query('CREATE INDEX webhook_deliveries_retry_requested ON webhook_deliveries (id) WHERE retry_requested');
    await db.query('CREATE INDEX webhook_deliveries_by_tenant ON webhook_deliveries (account_id, environment, created_at DESC, id DESC)');
    await db.query('CREATE INDEX webhook_deliveries_by_resource ON webhook_deliveries (account_id, environment, resource_id, created_at DESC)');
    await db.query("CREATE INDEX webhook_deliveries_pending_group ON webhook_deliveries (account_id, environment, group_id) WHERE status = 'pending'");
    await db.query(`
      CREATE TABLE webhook_attempts (
        delivery_id   text NOT NULL REFERENCES webhook_deliveries (id),
        number        integer NOT NULL,
        attempted_at  timestamptz NOT NULL,
        url           text NOT NULL,
        status_code   integer,
        error         text,
        latency_ms    integer NOT NULL,
        response_body text,
        trigger       text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
        PRIMARY KEY (delivery_id, number)
      )`);
    await db.query('CREATE TABLE webhook_streams (stream_id text PRIMARY KEY, version integer NOT NULL, fold jsonb NOT NULL)');
    await db.query('CREATE TABLE webhook_inbox (stream_id text NOT NULL, version integer NOT NULL, envelope jsonb NOT NULL, PRIMARY KEY (stream_id, version))');
    await db.query(`
      CREATE TABLE webhook_secrets (
        account_id           text PRIMARY KEY,
        secret               text NOT NULL,
        previous_secret      text,
        previous_valid_until timestamptz,
        version              integer NOT NULL
      )`);
    await db.query(`
      CREATE TABLE webhook_gone (
        account_id text NOT NULL, environment text NOT NULL, group_id text NOT NULL, url text NOT NULL,
        PRIMARY KEY (account_id, environment, group_id, url)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['webhook_gone', 'webhook_secrets', 'webhook_inbox', 'webhook_streams', 'webhook_attempts', 'webhook_deliveries']) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}

/**
 * A signing secret per environment (docs/decisions/webhooks.md "A secret per environment"): the one secret an account
 * had signs its production webhooks from now on, as before; its sandbox secret arrives with the account's next event
 * (the gateway issues one at its start). Until then the account's sandbox deliveries wait on their schedule, never
 * signed with the production secret.
 */
export class WebhookSecretsPerEnvironment1763800000990 implements MigrationInterface {
  name = 'WebhookSecretsPerEnvironment1763800000990';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_secrets ADD COLUMN environment text NOT NULL DEFAULT 'production' CHECK (environment IN ('production', 'sandbox'))`);
    await db.query('ALTER TABLE webhook_secrets ALTER COLUMN environment DROP DEFAULT');
    await db.query('ALTER TABLE webhook_secrets DROP CONSTRAINT webhook_secrets_pkey, ADD PRIMARY KEY (account_id, environment)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM webhook_secrets WHERE environment = 'sandbox'`);
    await db.query('ALTER TABLE webhook_secrets DROP CONSTRAINT webhook_secrets_pkey, ADD PRIMARY KEY (account_id)');
    await db.query('ALTER TABLE webhook_secrets DROP COLUMN environment');
  }
}

/**
 * Recurrence and charge events carry their record: the dispatcher keeps no fold per recurrence stream and holds no
 * event back for its order any more. An event still held in webhook_inbox is dropped with it (a version 1 event
 * waiting for the one before it: without its record, it could make no delivery now). Down recreates the tables empty.
 */
export class WebhookRecordsInEvents1763800000991 implements MigrationInterface {
  name = 'WebhookRecordsInEvents1763800000991';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE webhook_inbox');
    await db.query('DROP TABLE webhook_streams');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('CREATE TABLE webhook_streams (stream_id text PRIMARY KEY, version integer NOT NULL, fold jsonb NOT NULL)');
    await db.query('CREATE TABLE webhook_inbox (stream_id text NOT NULL, version integer NOT NULL, envelope jsonb NOT NULL, PRIMARY KEY (stream_id, version))');
  }
}

/**
 * Webhook endpoints (docs/decisions/webhooks.md "Webhook endpoints"): an account's URLs per environment that receive
 * every event of the types they take, each with its own signing secret (sealed, as the accounts' are), and the
 * endpoint each delivery is for (null: a resource's own webhook).
 */
export class WebhookEndpoints1763800001000 implements MigrationInterface {
  name = 'WebhookEndpoints1763800001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id                   uuid PRIMARY KEY,
        account_id           text NOT NULL,
        environment          text NOT NULL CHECK (environment IN ('production', 'sandbox')),
        url                  text NOT NULL,
        event_types          text[] NOT NULL,
        description          text,
        enabled              boolean NOT NULL,
        secret               text NOT NULL,
        previous_secret      text,
        previous_valid_until timestamptz,
        version              integer NOT NULL,
        created_at           timestamptz NOT NULL,
        updated_at           timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX webhook_endpoints_by_tenant ON webhook_endpoints (account_id, environment, created_at, id)');
    await db.query('ALTER TABLE webhook_deliveries ADD COLUMN endpoint_id uuid');
    await db.query(
      'CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (account_id, environment, endpoint_id, created_at DESC) WHERE endpoint_id IS NOT NULL',
    );
    await db.query("CREATE INDEX webhook_deliveries_pending_endpoint ON webhook_deliveries (endpoint_id) WHERE status = 'pending' AND endpoint_id IS NOT NULL");
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX webhook_deliveries_pending_endpoint');
    await db.query('DROP INDEX webhook_deliveries_by_endpoint');
    await db.query('ALTER TABLE webhook_deliveries DROP COLUMN endpoint_id');
    await db.query('DROP TABLE webhook_endpoints');
  }
}
