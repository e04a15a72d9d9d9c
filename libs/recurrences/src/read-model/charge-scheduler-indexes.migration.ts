import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scheduler's two timers as index ranges. Due charge creations: production by (next_charge_at, recurrence_id),
 * so a claim seeks to its cursor and stops at now, never reading the recurrences due later. Sandbox debit attempts:
 * only sandbox charges are indexed, so production's pending charges are never walked by that timer.
 */
export class ChargeSchedulerIndexes1763800000330 implements MigrationInterface {
  name = 'ChargeSchedulerIndexes1763800000330';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX recurrences_next_charge');
    await db.query('CREATE INDEX recurrences_next_charge ON recurrences (environment, next_charge_at, recurrence_id) WHERE next_charge_at IS NOT NULL');
    await db.query('DROP INDEX charges_pending_attempt');
    await db.query(`CREATE INDEX charges_sandbox_attempt ON charges (attempt_at) WHERE status = 'SCHEDULED' AND type = 'cycle' AND environment = 'sandbox'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX charges_sandbox_attempt');
    await db.query(`CREATE INDEX charges_pending_attempt ON charges (attempt_at) WHERE status = 'SCHEDULED' AND type = 'cycle'`);
    await db.query('DROP INDEX recurrences_next_charge');
    await db.query('CREATE INDEX recurrences_next_charge ON recurrences (next_charge_at) WHERE next_charge_at IS NOT NULL');
  }
}
