import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * payout-query-service's read model: one row per payout, the latest version of its record (every payout event
 * carries the whole record). Flat columns, so the CSV is PostgreSQL's own COPY of them. Indexes: by id and by
 * transaction_id, a tenant's period in created_at order, a customer's history.
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

/** A payout the receiving bank sent back (docs/decisions/payouts.md#returns-a-payout-sent-back): its returns, whose latest refund_id GET /v2/withdrawals shows. */
export class PayoutLookupsReturns1763800000710 implements MigrationInterface {
  name = 'PayoutLookupsReturns1763800000710';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payout_lookups ADD COLUMN returns jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE payout_lookups DROP COLUMN returns');
  }
}

/**
 * Payouts per tenant, UTC day and status, kept by the projection in the same transaction as the rows: a period's count
 * sums its whole days here and counts only its partial first and last days in payout_lookups, so a month's page costs
 * what a day's does. Filled from the rows already there (PAYOUT_DAILY_COUNTS_FROM_ROWS).
 */
export class PayoutDailyCounts1763800000720 implements MigrationInterface {
  name = 'PayoutDailyCounts1763800000720';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE payout_daily_counts (
        account_id  text NOT NULL,
        environment text NOT NULL,
        day         date NOT NULL,
        status      smallint NOT NULL,
        count       integer NOT NULL,
        PRIMARY KEY (account_id, environment, day, status)
      )`);
    await db.query(PAYOUT_DAILY_COUNTS_FROM_ROWS);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE payout_daily_counts');
  }
}

/** The daily counts computed from payout_lookups as it stands (the migration; a bench that writes rows straight in). */
export const PAYOUT_DAILY_COUNTS_FROM_ROWS = `
  INSERT INTO payout_daily_counts (account_id, environment, day, status, count)
  SELECT account_id, environment, (created_at AT TIME ZONE 'UTC')::date, status, count(*) FROM payout_lookups GROUP BY 1, 2, 3, 4`;

/** Every migration of payout-query-service's database, in order. */
export const PAYOUT_QUERY_MIGRATIONS = [PayoutLookups1763800000700, PayoutLookupsReturns1763800000710, PayoutDailyCounts1763800000720];
