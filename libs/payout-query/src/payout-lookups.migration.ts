import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * payout-query-service's read model: one row per payout, the latest version of its record (every payout event
 * carries the whole record). Flat columns, so the CSV is PostgreSQL's own COPY of them. Indexes: by id and by
 * transaction_id (4.8), a tenant's period in created_at order (4.9, 4.11), a customer's history (4.10).
 */
export class PayoutLookups1763800000700 implements MigrationInterface {
  name = 'PayoutLookups1763800000700';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE payout_lookups (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        id              bigint NOT NULL,
        transaction_id  text NOT NULL,
        name            text NOT NULL,
        document_number text NOT NULL,
        document_type   text NOT NULL,
        amount_centavos bigint NOT NULL,
        status          smallint NOT NULL,
        pix_key         text,
        bank_name       text,
        bank_code       text,
        ispb            text,
        account_agency  text,
        account_number  text,
        webhook         text,
        provider        text NOT NULL,
        created_at      timestamptz NOT NULL,
        paid_at         timestamptz,
        e2e             text,
        psp_id          text,
        version         integer NOT NULL,
        PRIMARY KEY (account_id, environment, id),
        CONSTRAINT payout_lookups_transaction_id UNIQUE (account_id, environment, transaction_id)
      )`);
    // status included: a period's count and the page's keys (with or without the status filter) come from the index alone.
    await db.query('CREATE INDEX payout_lookups_period ON payout_lookups (account_id, environment, created_at, id) INCLUDE (status)');
    await db.query('CREATE INDEX payout_lookups_customer ON payout_lookups (account_id, environment, document_number, created_at, id)');
    // This database's own consumer group, so a new (or dropped and recreated) database reads the topic from its start.
    await db.query('CREATE TABLE payout_lookups_generation (generation uuid NOT NULL DEFAULT gen_random_uuid())');
    await db.query('INSERT INTO payout_lookups_generation DEFAULT VALUES');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE payout_lookups_generation');
    await db.query('DROP TABLE payout_lookups');
  }
}

/** A payout the receiving bank sent back (issue #11): its returns, whose latest refund_id GET /v2/withdrawals shows. */
export class PayoutLookupsReturns1763800000710 implements MigrationInterface {
  name = 'PayoutLookupsReturns1763800000710';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payout_lookups ADD COLUMN returns jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE payout_lookups DROP COLUMN returns');
  }
}
