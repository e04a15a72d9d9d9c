import { MigrationInterface, QueryRunner } from 'typeorm';

export class SolicitationsReadModel1763800000400 implements MigrationInterface {
  name = 'SolicitationsReadModel1763800000400';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE solicitations (
        account_id        text NOT NULL,
        environment       text NOT NULL,
        solicitation_id   text NOT NULL,
        recurrence_id     text NOT NULL,
        status            text NOT NULL,
        outcome           text NOT NULL,
        expires_at        timestamptz NOT NULL,
        bank_id_solic_rec text NOT NULL,
        version           integer NOT NULL,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        PRIMARY KEY (account_id, environment, solicitation_id)
      )`);
    // One active solicitation per recurrence: the append that would make a second one fails as a whole.
    await db.query(`CREATE UNIQUE INDEX solicitations_one_active ON solicitations (account_id, environment, recurrence_id) WHERE outcome = 'PENDING'`);
    // The durable deadline: pending solicitations by expiry, read by the deadline watcher after any restart.
    await db.query(`CREATE INDEX solicitations_pending_by_deadline ON solicitations (expires_at) WHERE outcome = 'PENDING'`);
    // The recurrences this service knows of, learnt from their events on Kafka (the services share no database).
    await db.query(`
      CREATE TABLE known_recurrences (
        account_id    text NOT NULL,
        environment   text NOT NULL,
        recurrence_id text NOT NULL,
        status        text NOT NULL,
        bank_id_rec   text NOT NULL,
        version       integer NOT NULL,
        PRIMARY KEY (account_id, environment, recurrence_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE known_recurrences');
    await db.query('DROP TABLE solicitations');
  }
}
