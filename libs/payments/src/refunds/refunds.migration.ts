import { MigrationInterface, QueryRunner } from 'typeorm';

// Refunds of cash-in charges (docs/decisions/refunds.md): the read side of the refund events, and the reconciler's to-do list.
export class PixRefundsReadModel1763800000630 implements MigrationInterface {
  name = 'PixRefundsReadModel1763800000630';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE SEQUENCE pix_refund_ids');
    await db.query(`
      CREATE TABLE pix_refunds (
        id              bigint PRIMARY KEY,
        account_id      text NOT NULL,
        environment     text NOT NULL,
        refund_id       text,
        charge_id       bigint NOT NULL,
        transaction_id  text NOT NULL,
        e2e_id          text NOT NULL,
        bank_id         text NOT NULL,
        amount_centavos bigint NOT NULL,
        status          text NOT NULL,
        rtr_id          text,
        failure_reason  text,
        created_at      timestamptz NOT NULL,
        refunded_at     timestamptz,
        -- The reconciler's next look at the bank while PROCESSING (bookkeeping, not an event), and how many it took.
        next_check_at   timestamptz,
        checks          integer NOT NULL DEFAULT 0,
        version         integer NOT NULL
      )`);
    // refund_id is unique per tenant among refunds that did not fail (a refused refund may be asked again).
    await db.query(
      `CREATE UNIQUE INDEX pix_refunds_refund_id ON pix_refunds (account_id, environment, refund_id) WHERE refund_id IS NOT NULL AND status <> 'FAILED'`,
    );
    await db.query('CREATE INDEX pix_refunds_charge ON pix_refunds (account_id, environment, charge_id)');
    // The bank names a refund by its Pix and its id (its notifications carry both).
    await db.query('CREATE UNIQUE INDEX pix_refunds_bank ON pix_refunds (e2e_id, bank_id)');
    await db.query(`CREATE INDEX pix_refunds_processing ON pix_refunds (next_check_at) WHERE status = 'PROCESSING'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE pix_refunds');
    await db.query('DROP SEQUENCE pix_refund_ids');
  }
}
