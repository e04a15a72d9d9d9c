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

/** Rate limits per account (docs/decisions/rate-limits.md); NULL for an account opened before them: the defaults. */
export class AccountsRateLimits1763800000720 implements MigrationInterface {
  name = 'AccountsRateLimits1763800000720';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE accounts ADD COLUMN rate_limit jsonb');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE accounts DROP COLUMN rate_limit');
  }
}

/**
 * Console users: who signs in to the merchant console. Kept as rows rather than events, so that password hashes never
 * travel in the account's events or on Kafka.
 */
export class ConsoleUsers1763800000900 implements MigrationInterface {
  name = 'ConsoleUsers1763800000900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE console_users (
        user_id       text PRIMARY KEY,
        account_id    text NOT NULL REFERENCES accounts (account_id),
        email         text NOT NULL UNIQUE,
        role          text NOT NULL,
        password_hash text NOT NULL,
        created_at    timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE console_users');
  }
}

/**
 * Console users are created without a password and choose one with a one-time sign-in link: only a SHA-256 of the
 * link's token is kept, with when it stops working. When each last signed in, for the console's team page.
 */
export class ConsoleUserSignInLinks1763800000960 implements MigrationInterface {
  name = 'ConsoleUserSignInLinks1763800000960';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE console_users ALTER COLUMN password_hash DROP NOT NULL');
    await db.query(`
      ALTER TABLE console_users
        ADD COLUMN sign_in_token_hash text UNIQUE,
        ADD COLUMN sign_in_expires_at timestamptz,
        ADD COLUMN last_signed_in_at  timestamptz`);
    await db.query('CREATE INDEX console_users_account ON console_users (account_id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX console_users_account');
    await db.query('ALTER TABLE console_users DROP COLUMN sign_in_token_hash, DROP COLUMN sign_in_expires_at, DROP COLUMN last_signed_in_at');
    await db.query('ALTER TABLE console_users ALTER COLUMN password_hash SET NOT NULL');
  }
}

/**
 * A console user's email is unique within its account, not across the platform: an owner adding an address learns
 * nothing of other accounts and cannot take an address before another account does (docs/decisions/console.md).
 */
export class ConsoleUsersPerAccount1763800000971 implements MigrationInterface {
  name = 'ConsoleUsersPerAccount1763800000971';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE console_users DROP CONSTRAINT console_users_email_key');
    await db.query('ALTER TABLE console_users ADD CONSTRAINT console_users_account_email UNIQUE (account_id, email)');
    await db.query('CREATE INDEX console_users_email ON console_users (email)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX console_users_email');
    await db.query('ALTER TABLE console_users DROP CONSTRAINT console_users_account_email');
    await db.query('ALTER TABLE console_users ADD CONSTRAINT console_users_email_key UNIQUE (email)');
  }
}

/**
 * A signing secret per environment: webhook_secret is production's (the one secret an account had before), the
 * sandbox's its own; NULL until the gateway issues one to an account opened before (AccountsAdmin.issueMissingSandboxSecrets).
 */
export class AccountsSandboxWebhookSecret1763800000980 implements MigrationInterface {
  name = 'AccountsSandboxWebhookSecret1763800000980';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE accounts ADD COLUMN sandbox_webhook_secret text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE accounts DROP COLUMN sandbox_webhook_secret');
  }
}

/**
 * The accounts' audit log (docs/decisions/audit-log.md): append-only, which the database itself holds to (UPDATE,
 * DELETE and TRUNCATE are refused), read newest first per account.
 */
export class AuditLog1763800000996 implements MigrationInterface {
  name = 'AuditLog1763800000996';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_log (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id  text NOT NULL,
        environment text,
        at          timestamptz NOT NULL,
        actor_type  text NOT NULL,
        actor       text,
        action      text NOT NULL,
        object      text NOT NULL,
        detail      jsonb NOT NULL DEFAULT '{}'
      )`);
    await db.query('CREATE INDEX audit_log_newest ON audit_log (account_id, id DESC)');
    await db.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
      END $$`);
    await db.query('CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()');
    await db.query('CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE audit_log');
    await db.query('DROP FUNCTION audit_log_append_only()');
  }
}

/** A key's name, given when it is issued (keys issued before have none). */
export class ApiKeyNames1763800000997 implements MigrationInterface {
  name = 'ApiKeyNames1763800000997';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE api_keys ADD COLUMN name text');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE api_keys DROP COLUMN name');
  }
}

/** The accounts' tables in the gateway's database, in order: the gateway and the tests that stand in for it run these. */
export const ACCOUNT_MIGRATIONS = [
  AccountsReadModel1763800000200,
  AccountsRateLimits1763800000720,
  ConsoleUsers1763800000900,
  ConsoleUserSignInLinks1763800000960,
  ConsoleUsersPerAccount1763800000971,
  AccountsSandboxWebhookSecret1763800000980,
  AuditLog1763800000996,
  ApiKeyNames1763800000997,
];
