import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerLimitsReadModel1763800000100 implements MigrationInterface {
  name = 'CustomerLimitsReadModel1763800000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE customer_limits (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        document_number text NOT NULL,
        limit_type      text NOT NULL,
        mechanism       text NOT NULL,
        amount_centavos bigint,
        quantity        integer,
        details         text,
        version         integer NOT NULL,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL,
        PRIMARY KEY (account_id, environment, document_number, limit_type)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE customer_limits');
  }
}
