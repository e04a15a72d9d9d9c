import { MigrationInterface, QueryRunner } from 'typeorm';

export class RecurrencesReadModel1763800000300 implements MigrationInterface {
  name = 'RecurrencesReadModel1763800000300';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE recurrences (
        account_id                 text NOT NULL,
        environment                text NOT NULL,
        recurrence_id              text NOT NULL,
        transaction_id             text NOT NULL,
        status                     text NOT NULL,
        journey                    text NOT NULL,
        debtor_document_number     text NOT NULL,
        debtor_name                text NOT NULL,
        start_date                 date NOT NULL,
        end_date                   date,
        periodicity                text NOT NULL,
        amount_centavos            bigint NOT NULL,
        retry_policy               text NOT NULL,
        business_day_adjust        boolean NOT NULL,
        charge_lead_days           integer NOT NULL,
        webhook                    text,
        pix_copy_paste             text,
        activation_charge_id       text,
        activation_amount_centavos bigint,
        bank_id_rec                text NOT NULL,
        version                    integer NOT NULL,
        created_at                 timestamptz NOT NULL,
        updated_at                 timestamptz NOT NULL,
        PRIMARY KEY (account_id, environment, recurrence_id),
        -- transaction_id is unique per tenant: the append that would break it fails as a whole.
        CONSTRAINT recurrences_transaction_id UNIQUE (account_id, environment, transaction_id)
      )`);
    await db.query('CREATE INDEX recurrences_by_creation ON recurrences (account_id, environment, created_at DESC, recurrence_id)');
    await db.query('CREATE INDEX recurrences_by_bank_id ON recurrences (environment, bank_id_rec)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE recurrences');
  }
}
