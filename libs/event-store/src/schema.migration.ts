import { MigrationInterface, QueryRunner } from 'typeorm';

/** The event store of one service: its events, the outbox that publishes them, and the consumer ledger. */
export class EventStoreSchema1763800000000 implements MigrationInterface {
  name = 'EventStoreSchema1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE events (
        position    bigserial PRIMARY KEY,
        event_id    uuid NOT NULL UNIQUE,
        stream_id   text NOT NULL,
        stream_type text NOT NULL,
        version     integer NOT NULL,
        type        text NOT NULL,
        data        jsonb NOT NULL,
        account_id  text NOT NULL,
        environment text NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT events_stream_version UNIQUE (stream_id, version)
      )`);
    await db.query(`CREATE INDEX events_by_type ON events (stream_type, position)`);
    await db.query(`
      CREATE TABLE outbox (
        id          bigserial PRIMARY KEY,
        topic       text NOT NULL,
        message_key text NOT NULL,
        payload     jsonb NOT NULL,
        headers     jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE processed_messages (
        consumer     text NOT NULL,
        message_id   text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, message_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE processed_messages');
    await db.query('DROP TABLE outbox');
    await db.query('DROP TABLE events');
  }
}
