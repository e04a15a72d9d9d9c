import { MigrationInterface, QueryRunner } from 'typeorm';

/** The account's charges by due date (GET /v2/automatic-pix/charges, the console's overview): a range of one index. */
export class ChargesDueIndex1763800000360 implements MigrationInterface {
  name = 'ChargesDueIndex1763800000360';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX charges_due ON charges (account_id, environment, due_date)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX charges_due');
  }
}
