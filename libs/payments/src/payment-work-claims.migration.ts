import { MigrationInterface, QueryRunner } from 'typeorm';
import { addClaimColumnsSql, dropClaimColumnsSql } from '@pixauto/event-store';

/** Claims of the cash-in expiry and of the payout sender (work-claims.ts): replicas share them. */
export class PaymentWorkClaims1763800000640 implements MigrationInterface {
  name = 'PaymentWorkClaims1763800000640';

  async up(db: QueryRunner): Promise<void> {
    for (const table of ['pix_charges', 'payouts']) await db.query(addClaimColumnsSql(table));
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['pix_charges', 'payouts']) await db.query(dropClaimColumnsSql(table));
  }
}
