import { MigrationInterface, QueryRunner } from 'typeorm';

/** Journey 3: when the activation payment stops being payable, kept where the activation watcher finds it after any restart. */
export class RecurrencesActivationDeadline1763800000310 implements MigrationInterface {
  name = 'RecurrencesActivationDeadline1763800000310';

  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE recurrences ADD COLUMN activation_expires_at timestamptz, ADD COLUMN activation_expired boolean NOT NULL DEFAULT false');
    await db.query(
      `CREATE INDEX recurrences_activation_due ON recurrences (activation_expires_at) WHERE status = 'CREATED' AND NOT activation_expired AND activation_expires_at IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX recurrences_activation_due');
    await db.query('ALTER TABLE recurrences DROP COLUMN activation_expired, DROP COLUMN activation_expires_at');
  }
}
