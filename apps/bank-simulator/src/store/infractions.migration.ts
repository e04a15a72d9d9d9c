import { MigrationInterface, QueryRunner } from 'typeorm';

// Infractions (MED) reported on the Pix a client received, keyed by the client and the infraction's id.
export class BankSimulatorInfractions1768000002100 implements MigrationInterface {
  name = 'BankSimulatorInfractions1768000002100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE infractions (
        client        text NOT NULL,
        id            text NOT NULL,
        end_to_end_id text NOT NULL,
        record        jsonb NOT NULL,
        PRIMARY KEY (client, id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE infractions');
  }
}
