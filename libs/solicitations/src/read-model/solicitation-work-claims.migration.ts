import { MigrationInterface, QueryRunner } from 'typeorm';
import { addClaimColumnsSql, dropClaimColumnsSql } from '@pixauto/event-store';

/** Claims of the solicitation deadlines and of the bank's followers (work-claims.ts): replicas share them. */
export class SolicitationWorkClaims1763800000410 implements MigrationInterface {
  name = 'SolicitationWorkClaims1763800000410';

  async up(db: QueryRunner): Promise<void> {
    await db.query(addClaimColumnsSql('solicitations'));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(dropClaimColumnsSql('solicitations'));
  }
}
