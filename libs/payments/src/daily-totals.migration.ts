import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v2/reports/daily-totals: a tenant's Pix charges paid in a period, by `paid_at`, as one index range. Partial (PAID
 * only): a charge enters it once, when it is paid (that update already writes every index of the row, its status being
 * in the expiry index's predicate), so its write cost is one index entry per charge paid; pending and expired charges
 * never enter it.
 */
export class PixChargesPaidIndex1763800001100 implements MigrationInterface {
  name = 'PixChargesPaidIndex1763800001100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX pix_charges_paid ON pix_charges (account_id, environment, paid_at) INCLUDE (amount_centavos) WHERE status = 'PAID'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX pix_charges_paid');
  }
}
