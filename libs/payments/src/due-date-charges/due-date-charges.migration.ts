import { MigrationInterface, QueryRunner } from 'typeorm';
import { addClaimColumnsSql } from '@pixauto/event-store';

// The due-date charges' read model: the record as the events carry it, with the columns its lookups, its period list
// and the expiry sweep read (the sweep claims rows, as the cash-in expiry does).
export class DueDateChargesReadModel1763800002200 implements MigrationInterface {
  name = 'DueDateChargesReadModel1763800002200';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE SEQUENCE due_date_charge_ids');
    await db.query(`
      CREATE TABLE due_date_charges (
        account_id       text NOT NULL,
        environment      text NOT NULL,
        id               bigint NOT NULL,
        transaction_id   text NOT NULL,
        status           text NOT NULL,
        last_payable_day date NOT NULL,
        txid             text NOT NULL,
        created_at       timestamptz NOT NULL,
        record           jsonb NOT NULL,
        version          integer NOT NULL,
        PRIMARY KEY (account_id, environment, id),
        CONSTRAINT due_date_charges_transaction_id UNIQUE (account_id, environment, transaction_id)
      )`);
    await db.query('CREATE UNIQUE INDEX due_date_charges_txid ON due_date_charges (txid, environment)');
    await db.query('CREATE INDEX due_date_charges_created ON due_date_charges (account_id, environment, created_at DESC, id DESC)');
    await db.query(`CREATE INDEX due_date_charges_payable ON due_date_charges (last_payable_day) WHERE status = 'PENDING'`);
    await db.query(addClaimColumnsSql('due_date_charges'));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE due_date_charges');
    await db.query('DROP SEQUENCE due_date_charge_ids');
  }
}
