import { MigrationInterface, QueryRunner } from 'typeorm';

// Disputes of Pix received (docs/decisions/disputes.md): their read side, their evidence files, and the payment's latest dispute on its row.
export class PixDisputesReadModel1763800002100 implements MigrationInterface {
  name = 'PixDisputesReadModel1763800002100';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE SEQUENCE pix_dispute_ids');
    await db.query('ALTER TABLE pix_charges ADD COLUMN dispute jsonb');
    await db.query(`
      CREATE TABLE pix_disputes (
        id                     bigint PRIMARY KEY,
        account_id             text NOT NULL,
        environment            text NOT NULL,
        infraction_id          text NOT NULL,
        charge_id              bigint NOT NULL,
        transaction_id         text NOT NULL,
        charge_amount_centavos bigint NOT NULL,
        status                 text NOT NULL,
        opened_at              timestamptz NOT NULL,
        record                 jsonb NOT NULL,
        version                integer NOT NULL
      )`);
    // The sandbox's chosen timing: when its bank concludes a dispute, on the tenant's clock (bookkeeping, not an event),
    // and the conclusion task's next look. A table of its own: written beside the opening's events in their statement.
    await db.query(`
      CREATE TABLE sandbox_dispute_conclusions (
        dispute_id    bigint PRIMARY KEY,
        conclude_at   timestamptz NOT NULL,
        next_check_at timestamptz NOT NULL
      )`);
    await db.query('CREATE INDEX sandbox_dispute_conclusions_next ON sandbox_dispute_conclusions (next_check_at)');
    await db.query('CREATE UNIQUE INDEX pix_disputes_infraction ON pix_disputes (environment, infraction_id)');
    await db.query('CREATE INDEX pix_disputes_opened ON pix_disputes (account_id, environment, opened_at DESC, id DESC)');
    // A defence's files: readable only through the account's own API key (account_id and environment in every read).
    await db.query('CREATE SEQUENCE dispute_evidence_ids');
    await db.query(`
      CREATE TABLE dispute_evidence (
        id           bigint PRIMARY KEY,
        account_id   text NOT NULL,
        environment  text NOT NULL,
        dispute_id   bigint NOT NULL,
        file_name    text NOT NULL,
        content_type text NOT NULL,
        content      bytea NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE dispute_evidence');
    await db.query('DROP SEQUENCE dispute_evidence_ids');
    await db.query('DROP TABLE sandbox_dispute_conclusions');
    await db.query('DROP TABLE pix_disputes');
    await db.query('ALTER TABLE pix_charges DROP COLUMN dispute');
    await db.query('DROP SEQUENCE pix_dispute_ids');
  }
}
