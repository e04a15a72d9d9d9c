import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The expected-version check of an append, inside the append's own statement: it raises (SQLSTATE ES409) when the
 * stream is not at the version the writer read, so the whole statement, read models and outbox included, rolls back.
 */
export class EventStoreAppendGuard1763800000050 implements MigrationInterface {
  name = 'EventStoreAppendGuard1763800000050';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION event_store_expect_version(stream text, expected integer) RETURNS integer
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE actual integer;
      BEGIN
        SELECT coalesce(max(version), 0) INTO actual FROM events WHERE stream_id = stream;
        IF actual <> expected THEN
          RAISE EXCEPTION 'stream % is at version %, not %', stream, actual, expected USING ERRCODE = 'ES409';
        END IF;
        RETURN actual;
      END $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION event_store_expect_version(text, integer)');
  }
}
