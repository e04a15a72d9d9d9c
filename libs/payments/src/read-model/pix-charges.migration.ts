import { MigrationInterface, QueryRunner } from 'typeorm';

export class PixChargesReadModel1763800000500 implements MigrationInterface {
  name = 'PixChargesReadModel1763800000500';

  async up(db: QueryRunner): Promise<void> {
    // The API's id is an integer: drawn from this sequence before the charge's first event.
    await db.query('CREATE SEQUENCE pix_charge_ids');
    await db.query(`
      CREATE TABLE pix_charges (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        id              bigint NOT NULL,
        transaction_id  text NOT NULL,
        amount_centavos bigint NOT NULL,
        status          text NOT NULL,
        provider        text NOT NULL,
        recurrence_id   text,
        created_at      timestamptz NOT NULL,
        paid_at         timestamptz,
        version         integer NOT NULL,
        PRIMARY KEY (account_id, environment, id),
        CONSTRAINT pix_charges_transaction_id UNIQUE (account_id, environment, transaction_id)
      )`);
    // Journey 3 activations announced by recurrence-service, waiting for their recurrence's approval.
    await db.query(`
      CREATE TABLE pending_activations (
        account_id           text NOT NULL,
        environment          text NOT NULL,
        recurrence_id        text NOT NULL,
        transaction_id       text NOT NULL,
        activation_charge_id text NOT NULL,
        amount_centavos      bigint NOT NULL,
        provider             text NOT NULL,
        created_at           timestamptz NOT NULL,
        PRIMARY KEY (account_id, environment, recurrence_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE pending_activations');
    await db.query('DROP TABLE pix_charges');
    await db.query('DROP SEQUENCE pix_charge_ids');
  }
}
