import { MigrationInterface, QueryRunner } from 'typeorm';

// Recurring charges (cobr) and their webhook. Like the first schema: the record is JSON, with beside it the columns
// that lookups, the sweeper and the bank's uniqueness rules need.
export class BankSimulatorRecurringCharges1765000000000 implements MigrationInterface {
  name = 'BankSimulatorRecurringCharges1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE recurring_charges (
        client     text NOT NULL,
        txid       text NOT NULL,
        id_rec     text NOT NULL REFERENCES recurrences (id_rec),
        status     text NOT NULL,
        cycle      integer NOT NULL,
        due_on     date,
        record     jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (client, txid)
      )`);
    // "Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com
    // calendario.dataDeVencimento no mesmo ciclo": two concurrent PUTs cannot both win.
    await db.query(`CREATE UNIQUE INDEX recurring_charges_one_per_cycle ON recurring_charges (id_rec, cycle) WHERE status NOT IN ('REJEITADA', 'CANCELADA')`);
    // The sweeper's work: the date of the AGENDADA attempt, null when none is scheduled.
    await db.query('CREATE INDEX recurring_charges_due ON recurring_charges (due_on) WHERE due_on IS NOT NULL');
    await db.query(`
      CREATE TABLE recurring_charge_webhooks (
        client      text PRIMARY KEY,
        webhook_url text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE recurring_charge_webhooks, recurring_charges');
  }
}
