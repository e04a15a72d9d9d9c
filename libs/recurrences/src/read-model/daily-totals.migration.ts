import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /v2/reports/daily-totals: a tenant's Automatic Pix charges paid in a period, by `paid_at`, as one index range.
 * Partial (PAID only): a charge enters it once, when it is paid (an update that already writes the row's indexes, its
 * status being in the sandbox attempt index's predicate), so its write cost is one index entry per charge paid.
 */
export class ChargesPaidIndex1763800001110 implements MigrationInterface {
  name = 'ChargesPaidIndex1763800001110';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX charges_paid ON charges (account_id, environment, paid_at) INCLUDE (amount_centavos) WHERE status = 'PAID'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX charges_paid');
  }
}
