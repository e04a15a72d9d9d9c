import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cycle charges (docs/decisions/charges.md): the charges read model, and on each recurrence when its next cycle's charge is due
 * to be created, so the scheduler finds the work after any restart with one indexed range scan.
 */
export class RecurrenceCharges1763800000320 implements MigrationInterface {
  name = 'RecurrenceCharges1763800000320';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE recurrences ADD COLUMN next_charge_at timestamptz');
    await db.query('CREATE INDEX recurrences_next_charge ON recurrences (next_charge_at) WHERE next_charge_at IS NOT NULL');
    await db.query(`
      CREATE TABLE charges (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        charge_id       text NOT NULL,
        recurrence_id   text NOT NULL,
        type            text NOT NULL,
        cycle           integer,
        nominal_date    date,
        due_date        date NOT NULL,
        amount_centavos bigint NOT NULL,
        status          text NOT NULL,
        retries         integer NOT NULL,
        attempt_date    date NOT NULL,
        -- The first instant of attempt_date in Brasília: when the sandbox settles a pending debit.
        attempt_at      timestamptz NOT NULL,
        txid            text NOT NULL,
        created_at      timestamptz NOT NULL,
        paid_at         timestamptz,
        version         integer NOT NULL,
        PRIMARY KEY (account_id, environment, charge_id),
        -- Never two charges for one cycle: an append that would make a second one fails as a whole.
        CONSTRAINT charges_one_per_cycle UNIQUE (account_id, environment, recurrence_id, cycle)
      )`);
    await db.query('CREATE INDEX charges_of_recurrence ON charges (account_id, environment, recurrence_id, due_date)');
    await db.query('CREATE INDEX charges_by_txid ON charges (environment, txid)');
    await db.query(`CREATE INDEX charges_pending_attempt ON charges (attempt_at) WHERE status = 'SCHEDULED' AND type = 'cycle'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE charges');
    await db.query('ALTER TABLE recurrences DROP COLUMN next_charge_at');
  }
}
