import { DataSource, MixedList } from 'typeorm';
import { EventStoreAppendGuard1763800000050 } from './append-guard.migration';
import { FollowerPositions1763800000900 } from './read-your-writes';
import { EventStoreSchema1763800000000 } from './schema.migration';

/** The event store's schema, in order; every service's database runs these before its own migrations. */
export const EVENT_STORE_MIGRATIONS = [EventStoreSchema1763800000000, EventStoreAppendGuard1763800000050, FollowerPositions1763800000900];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type Migrations = MixedList<Function>;

const MIGRATION_LOCK = 727_001;

/** Schema comes from migrations only, run under a lock so that two instances starting together do not race. */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
