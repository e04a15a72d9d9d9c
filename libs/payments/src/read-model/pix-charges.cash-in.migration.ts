import { MigrationInterface, QueryRunner } from 'typeorm';

export class PixChargesCashIn1763800000620 implements MigrationInterface {
  name = 'PixChargesCashIn1763800000620';

  async up(db: QueryRunner): Promise<void> {
    // Merchants' own charges (POST /v2/pix): what GET shows, and the bank's charge behind each (txid, location).
    // The first activation deposits have none of these (NULL); every new row has what it knows.
    await db.query(`
      ALTER TABLE pix_charges
        ADD COLUMN payer_document_number text,
        ADD COLUMN payer_name            text,
        ADD COLUMN description           text,
        ADD COLUMN webhook               text,
        ADD COLUMN pix_copy_paste        text,
        ADD COLUMN expires_at            timestamptz,
        ADD COLUMN txid                  text,
        ADD COLUMN location              text,
        ADD COLUMN e2e_id                text,
        ADD COLUMN activation_charge_id  text`);
    // The bank names a charge by its txid alone (its notifications, POST {webhookUrl}/pix).
    await db.query('CREATE UNIQUE INDEX pix_charges_txid ON pix_charges (txid) WHERE txid IS NOT NULL');
    // The expiry sweep: pending charges by deadline.
    await db.query(`CREATE INDEX pix_charges_pending_expiry ON pix_charges (expires_at) WHERE status = 'PENDING'`);
    // What an activation deposit shows beside its amount, learnt from recurrence.created.
    await db.query(`
      ALTER TABLE pending_activations
        ADD COLUMN payer_document_number text,
        ADD COLUMN payer_name            text,
        ADD COLUMN description           text,
        ADD COLUMN webhook               text,
        ADD COLUMN expires_at            timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE pending_activations DROP COLUMN payer_document_number, DROP COLUMN payer_name, DROP COLUMN description, DROP COLUMN webhook, DROP COLUMN expires_at',
    );
    await db.query('DROP INDEX pix_charges_pending_expiry');
    await db.query('DROP INDEX pix_charges_txid');
    await db.query(`
      ALTER TABLE pix_charges
        DROP COLUMN payer_document_number, DROP COLUMN payer_name, DROP COLUMN description, DROP COLUMN webhook, DROP COLUMN pix_copy_paste,
        DROP COLUMN expires_at, DROP COLUMN txid, DROP COLUMN location, DROP COLUMN e2e_id, DROP COLUMN activation_charge_id`);
  }
}
