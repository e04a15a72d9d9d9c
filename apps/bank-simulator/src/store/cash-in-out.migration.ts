import { MigrationInterface, QueryRunner } from 'typeorm';

// Cash-in and cash-out: the Pix webhook per key, payouts and their webhook, and the lookup of a received
// Pix by its end-to-end id. As before, records are JSON with the columns lookups and the sweeper need beside them.
export class BankSimulatorCashInOut1766000000000 implements MigrationInterface {
  name = 'BankSimulatorCashInOut1766000000000';

  async up(db: QueryRunner): Promise<void> {
    // PUT /webhook/{chave}: one webhook per client and key.
    await db.query(`
      CREATE TABLE pix_webhooks (
        client      text NOT NULL,
        chave       text NOT NULL,
        webhook_url text NOT NULL,
        created_at  timestamptz NOT NULL,
        PRIMARY KEY (client, chave)
      )`);
    // GET /pix/{e2eid}: a paid immediate charge by its payment's end-to-end id.
    await db.query(
      `CREATE INDEX charges_end_to_end_id ON charges (client, (record #>> '{payment,endToEndId}')) WHERE (record #>> '{payment,endToEndId}') IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE payouts (
        client     text NOT NULL,
        id_envio   text NOT NULL,
        status     text NOT NULL,
        due_at     timestamptz,
        record     jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (client, id_envio)
      )`);
    // The sweeper's work: when an EM_PROCESSAMENTO payout settles by itself (real time), null once it cannot.
    await db.query('CREATE INDEX payouts_due ON payouts (due_at) WHERE due_at IS NOT NULL');
    await db.query(`
      CREATE TABLE payout_webhooks (
        client      text PRIMARY KEY,
        webhook_url text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE payout_webhooks, payouts, pix_webhooks');
    await db.query('DROP INDEX charges_end_to_end_id');
  }
}
