import { MigrationInterface, QueryRunner } from 'typeorm';

// Due-date charges (cobv): the record as JSON, found by txid or by the token of its location (the payload fetch).
export class BankSimulatorDueDateCharges1763800002210 implements MigrationInterface {
  name = 'BankSimulatorDueDateCharges1763800002210';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE due_date_charges (
        client     text NOT NULL,
        txid       text NOT NULL,
        token      text NOT NULL UNIQUE,
        record     jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (client, txid)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE due_date_charges');
  }
}
