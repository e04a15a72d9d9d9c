import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsReadModel1763800000200 implements MigrationInterface {
  name = 'AccountsReadModel1763800000200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE accounts (
        account_id      text PRIMARY KEY,
        name            text NOT NULL,
        wallet          boolean NOT NULL,
        cashin_provider text NOT NULL,
        providers       jsonb NOT NULL,
        webhook_secret  text NOT NULL,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE api_keys (
        key_id       text PRIMARY KEY,
        key_hash     text NOT NULL UNIQUE,
        account_id   text NOT NULL REFERENCES accounts (account_id),
        environment  text NOT NULL,
        read_only    boolean NOT NULL,
        transactions boolean NOT NULL,
        created_at   timestamptz NOT NULL,
        revoked_at   timestamptz
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE api_keys');
    await db.query('DROP TABLE accounts');
  }
}
