import { MigrationInterface, QueryRunner } from 'typeorm';

// GET /v2/pix/charges and GET /v2/transactions/refunds: a tenant's rows of a period, newest first, read from the
// index in its order (a page is a range of it; the page's count counts the period's entries of the same range).
export class PaymentPeriodLists1763800000650 implements MigrationInterface {
  name = 'PaymentPeriodLists1763800000650';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX pix_charges_created ON pix_charges (account_id, environment, created_at DESC, id DESC)');
    await db.query('CREATE INDEX pix_refunds_created ON pix_refunds (account_id, environment, created_at DESC, id DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX pix_refunds_created');
    await db.query('DROP INDEX pix_charges_created');
  }
}
