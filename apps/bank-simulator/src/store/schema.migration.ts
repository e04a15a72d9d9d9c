import { MigrationInterface, QueryRunner } from 'typeorm';
import { BankSimulatorCashInOut1766000000000 } from './cash-in-out.migration';
import { BankSimulatorRecurringCharges1765000000000 } from './recurring-charges.migration';
import { BankSimulatorInfractions1768000002100 } from './infractions.migration';
import { BankSimulatorRefunds1767000000000 } from './refunds.migration';
import { BankSimulatorDueDateCharges1763800002210 } from './due-date-charges.migration';

// Plain tables: the simulator stands in for an external bank, so no event store. Each row belongs to one
// client (the SHA-256 of its bearer token); the record itself is JSON, with the columns lookups and the
// bank's uniqueness rules need beside it.
export class BankSimulatorSchema1764000000000 implements MigrationInterface {
  name = 'BankSimulatorSchema1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE locations (
        id         bigserial PRIMARY KEY,
        client     text NOT NULL,
        kind       text NOT NULL CHECK (kind IN ('rec', 'cob')),
        location   text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        id_rec     text
      )`);
    await db.query(`
      CREATE TABLE recurrences (
        client          text NOT NULL,
        id_rec          text PRIMARY KEY,
        status          text NOT NULL,
        loc_id          bigint UNIQUE REFERENCES locations (id),
        activation_txid text,
        record          jsonb NOT NULL,
        created_at      timestamptz NOT NULL
      )`);
    // "O location referenciado por rec.loc já está sendo utilizado por outra recorrência"; one recurrence per charge.
    await db.query('CREATE UNIQUE INDEX recurrences_activation ON recurrences (client, activation_txid) WHERE activation_txid IS NOT NULL');
    await db.query(`
      CREATE TABLE solicitations (
        client        text NOT NULL,
        id_solic_rec  text PRIMARY KEY,
        id_rec        text NOT NULL REFERENCES recurrences (id_rec),
        status        text NOT NULL,
        due_at        timestamptz,
        record        jsonb NOT NULL,
        created_at    timestamptz NOT NULL
      )`);
    // "Existe uma solicitação ativa referente ao mesmo solicrec.idRec."
    await db.query(`CREATE UNIQUE INDEX solicitations_one_open ON solicitations (id_rec) WHERE status IN ('CRIADA', 'ENVIADA', 'RECEBIDA')`);
    await db.query('CREATE INDEX solicitations_due ON solicitations (due_at) WHERE due_at IS NOT NULL');
    await db.query('CREATE INDEX solicitations_of_rec ON solicitations (id_rec, created_at)');
    await db.query(`
      CREATE TABLE charges (
        client     text NOT NULL,
        txid       text NOT NULL,
        record     jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (client, txid)
      )`);
    await db.query(`
      CREATE TABLE recurrence_webhooks (
        client      text PRIMARY KEY,
        webhook_url text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE recurrence_webhooks, charges, solicitations, recurrences, locations');
  }
}

export const SIMULATOR_MIGRATIONS = [
  BankSimulatorSchema1764000000000,
  BankSimulatorRecurringCharges1765000000000,
  BankSimulatorCashInOut1766000000000,
  BankSimulatorRefunds1767000000000,
  BankSimulatorInfractions1768000002100,
  BankSimulatorDueDateCharges1763800002210,
];
