import { MigrationInterface, QueryRunner } from 'typeorm';
import { addClaimColumnsSql, dropClaimColumnsSql } from '@pixauto/event-store';

/**
 * Claims of the recurrence clocks (work-claims.ts): the charge scheduler claims charge_schedule rows, the sandbox
 * settlement charges, the activation deadlines recurrences, so that replicas share them and never take one twice.
 */
export class RecurrenceWorkClaims1763800000350 implements MigrationInterface {
  name = 'RecurrenceWorkClaims1763800000350';

  async up(db: QueryRunner): Promise<void> {
    for (const table of ['charge_schedule', 'charges', 'recurrences']) await db.query(addClaimColumnsSql(table));
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['charge_schedule', 'charges', 'recurrences']) await db.query(dropClaimColumnsSql(table));
  }
}
