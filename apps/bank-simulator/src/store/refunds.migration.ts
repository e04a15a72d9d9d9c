import { MigrationInterface, QueryRunner } from 'typeorm';

// Refunds of Pix received: one row per refund, keyed as the BCB path names it (e2eid, id).
export class BankSimulatorRefunds1767000000000 implements MigrationInterface {
  name = 'BankSimulatorRefunds1767000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE refunds (
        client      text NOT NULL,
        end_to_end_id text NOT NULL,
        id          text NOT NULL,
        status      text NOT NULL,
        due_at      timestamptz,
        record      jsonb NOT NULL,
        PRIMARY KEY (client, end_to_end_id, id)
      )`);
    // The sweeper's work: when an EM_PROCESSAMENTO refund is liquidated by itself (real time).
    await db.query('CREATE INDEX refunds_due ON refunds (due_at) WHERE due_at IS NOT NULL');
    // The receipt providers (PROVIDER_A, PROVIDER_B) know a refund by its rtrId alone, whoever's it is.
    await db.query(`CREATE UNIQUE INDEX refunds_rtr_id ON refunds ((record->>'rtrId'))`);
    // The providers know a payout by its end-to-end id and a payout's return by its rtrId.
    await db.query(`CREATE INDEX payouts_end_to_end_id ON payouts ((record->>'endToEndId'))`);
    await db.query(`CREATE INDEX payouts_returns ON payouts USING gin ((record->'devolucoes') jsonb_path_ops)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX payouts_returns, payouts_end_to_end_id');
    await db.query('DROP TABLE refunds');
  }
}
