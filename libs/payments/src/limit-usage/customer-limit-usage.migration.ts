import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerLimitUsage1763800000600 implements MigrationInterface {
  name = 'CustomerLimitUsage1763800000600';

  async up(db: QueryRunner): Promise<void> {
    // Today's transactions per customer and type (docs/decisions/limits.md). `cap` is the daily limit in force at the last
    // reservation; the CHECK makes the reservation that would pass it fail, and with it the transaction's append.
    await db.query(`
      CREATE TABLE customer_limit_usage (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        document_number text NOT NULL,
        limit_type      text NOT NULL,
        day             date NOT NULL,
        used            integer NOT NULL,
        cap             integer,
        PRIMARY KEY (account_id, environment, document_number, limit_type, day),
        CONSTRAINT customer_limit_usage_within_cap CHECK (cap IS NULL OR used <= cap)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE customer_limit_usage');
  }
}
