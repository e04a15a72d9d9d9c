import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The request log, partitioned by day (UTC): a day past the retention is dropped whole, never deleted row by row.
 * Partitions are made ahead by the gateway (ensureRequestLogDays); its two indexes answer the console's two reads:
 * an account's newest requests, and one request by its id.
 */
export class RequestLog1763800000950 implements MigrationInterface {
  name = 'RequestLog1763800000950';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE request_log (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        at              timestamptz NOT NULL,
        request_id      text NOT NULL,
        method          text NOT NULL,
        path            text NOT NULL,
        status          smallint NOT NULL,
        duration_ms     real NOT NULL,
        idempotency_key text,
        key_id          text NOT NULL,
        request_body    text,
        response_body   text
      ) PARTITION BY RANGE (at)`);
    await db.query('CREATE INDEX request_log_newest ON request_log (account_id, environment, at DESC)');
    await db.query('CREATE INDEX request_log_by_id ON request_log (account_id, environment, request_id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE request_log');
  }
}

/** Who made a change through the console: its user's email, on the console's own requests; null on any other. */
export class RequestLogConsoleUser1763800000972 implements MigrationInterface {
  name = 'RequestLogConsoleUser1763800000972';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE request_log ADD COLUMN console_user text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE request_log DROP COLUMN console_user');
  }
}

/**
 * A key's last use, read when its account's keys are listed: the newest line of each key is the first entry of this
 * index in the newest partition that has one, so the read costs a few index probes per key whatever the traffic.
 */
export class RequestLogKeyLastUse1763800000995 implements MigrationInterface {
  name = 'RequestLogKeyLastUse1763800000995';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX request_log_by_key ON request_log (key_id, at DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX request_log_by_key');
  }
}
