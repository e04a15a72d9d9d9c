import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * receipt-service's read model, from the payments, payouts and accounts topics: the cash-in charges and the payouts
 * (who processed them), their refunds (a payout's are the returns the receiving bank sent; each with the provider
 * identifier once the bank gave it) and each account's receipt providers with its own credentials. Every row keeps the version of the event it came from, so redeliveries and replays change nothing.
 */
export class ReceiptsReadModel1763800000800 implements MigrationInterface {
  name = 'ReceiptsReadModel1763800000800';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE receipt_charges (
        account_id     text NOT NULL,
        environment    text NOT NULL,
        id             bigint NOT NULL,
        transaction_id text NOT NULL,
        provider       text NOT NULL,
        version        integer NOT NULL,
        PRIMARY KEY (account_id, environment, id)
      )`);
    // Not unique: payments-service guarantees that, and a follower that refused an event would stop its partition.
    await db.query('CREATE INDEX receipt_charges_transaction_id ON receipt_charges (account_id, environment, transaction_id)');
    await db.query(`
      CREATE TABLE receipt_payouts (
        account_id     text NOT NULL,
        environment    text NOT NULL,
        id             bigint NOT NULL,
        transaction_id text NOT NULL,
        provider       text NOT NULL,
        status         smallint NOT NULL,
        e2e            text,
        version        integer NOT NULL,
        PRIMARY KEY (account_id, environment, id)
      )`);
    await db.query('CREATE INDEX receipt_payouts_transaction_id ON receipt_payouts (account_id, environment, transaction_id)');
    // kind: 'pix' (a refund of a cash-in charge) or 'payout' (a payout sent back); parent_id the charge's or payout's id.
    // Both kinds draw their ids from payments-service's one sequence.
    await db.query(`
      CREATE TABLE receipt_refunds (
        account_id  text NOT NULL,
        environment text NOT NULL,
        id          bigint NOT NULL,
        kind        text NOT NULL,
        refund_id   text,
        parent_id   bigint NOT NULL,
        status      text NOT NULL,
        rtr_id      text,
        version     integer NOT NULL,
        PRIMARY KEY (account_id, environment, id)
      )`);
    await db.query('CREATE INDEX receipt_refunds_parent ON receipt_refunds (account_id, environment, kind, parent_id)');
    await db.query('CREATE INDEX receipt_refunds_refund_id ON receipt_refunds (account_id, environment, refund_id) WHERE refund_id IS NOT NULL');
    // The account's stream version: providers change by account.changed, credentials included.
    await db.query(`
      CREATE TABLE receipt_accounts (
        account_id text PRIMARY KEY,
        providers  jsonb NOT NULL,
        version    integer NOT NULL
      )`);
    // This database's own consumer group, so a new (or dropped and recreated) database reads the topics from their start.
    await db.query('CREATE TABLE receipts_generation (generation uuid NOT NULL DEFAULT gen_random_uuid())');
    await db.query('INSERT INTO receipts_generation DEFAULT VALUES');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE receipts_generation, receipt_accounts, receipt_refunds, receipt_payouts, receipt_charges');
  }
}
