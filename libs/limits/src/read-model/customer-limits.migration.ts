import { MigrationInterface, QueryRunner } from 'typeorm';
import { Environment } from '@pixauto/contracts';
import { CUSTOMER_LIMIT_STREAM, customerLimitStreamId, documentDigest } from '../customer-limit';

export class CustomerLimitsReadModel1763800000100 implements MigrationInterface {
  name = 'CustomerLimitsReadModel1763800000100';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE customer_limits (
        account_id      text NOT NULL,
        environment     text NOT NULL,
        document_number text NOT NULL,
        limit_type      text NOT NULL,
        mechanism       text NOT NULL,
        amount_centavos bigint,
        quantity        integer,
        details         text,
        version         integer NOT NULL,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL,
        PRIMARY KEY (account_id, environment, document_number, limit_type)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE customer_limits');
  }
}

/**
 * Streams recorded before their ids were keyed by the document's HMAC (session 8) get the keyed id, so the next POST
 * for the customer continues the same stream. Made for the service's DOCUMENT_KEY: it cannot run without it.
 */
export const customerLimitStreamsKeyed = (key: Buffer): new () => MigrationInterface =>
  class CustomerLimitStreamsKeyed1763800000730 implements MigrationInterface {
    name = 'CustomerLimitStreamsKeyed1763800000730';

    async up(db: QueryRunner): Promise<void> {
      const streams: { stream_id: string }[] = await db.query('SELECT DISTINCT stream_id FROM events WHERE stream_type = $1', [CUSTOMER_LIMIT_STREAM]);
      for (const { stream_id } of streams) {
        const [, accountId, environment, document, limitType] = stream_id.split(':');
        // CPF and CNPJ are digits; a keyed id never is.
        if (!/^[0-9]+$/.test(document)) continue;
        const keyed = customerLimitStreamId({ accountId, environment: environment as Environment }, documentDigest(key, document), limitType);
        await db.query('UPDATE events SET stream_id = $2 WHERE stream_id = $1', [stream_id, keyed]);
      }
    }

    async down(): Promise<void> {
      // The digest cannot be turned back into the document: the keyed ids stay.
    }
  };
