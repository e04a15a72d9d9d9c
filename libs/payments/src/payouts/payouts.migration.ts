import { MigrationInterface, QueryRunner } from 'typeorm';

export class PayoutsReadModel1763800000610 implements MigrationInterface {
  name = 'PayoutsReadModel1763800000610';

  async up(db: QueryRunner): Promise<void> {
    // The API's id is an integer: drawn from this sequence before the payout's first event.
    await db.query('CREATE SEQUENCE payout_ids');
    // payments-service's own view of its payouts: what the sender, the bank's notices and the sandbox need.
    // The lookups are payout-query-service's, built from the events.
    await db.query(`
      CREATE TABLE payouts (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        id              bigint NOT NULL,
        transaction_id  text NOT NULL,
        status          smallint NOT NULL,
        record          jsonb NOT NULL,
        updated_at      timestamptz NOT NULL,
        version         integer NOT NULL,
        PRIMARY KEY (account_id, environment, id),
        CONSTRAINT payouts_transaction_id UNIQUE (account_id, environment, transaction_id)
      )`);
    // The bank names a payout by the id alone (its idEnvio is derived from it).
    await db.query('CREATE UNIQUE INDEX payouts_id ON payouts (id)');
    // The sender's work (created, not yet accepted by the bank) and the reconciliation's (processing for a while).
    await db.query('CREATE INDEX payouts_unsettled ON payouts (status, updated_at) WHERE status IN (0, 4)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE payouts');
    await db.query('DROP SEQUENCE payout_ids');
  }
}
