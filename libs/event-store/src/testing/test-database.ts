import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { until } from '@pixauto/testing';
import { EVENT_STORE_MIGRATIONS, Migrations, runMigrations } from '../migrations';

// Test support only (not exported from @pixauto/event-store): a throw-away database on the real PostgreSQL server,
// migrated like a service's own, and dropped afterwards so tests leave nothing behind.

const serverUrl = (): string => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const databaseNames = new WeakMap<DataSource, string>();

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates pixauto_test_<name>_<random>, then the event store's schema and the given migrations in it. */
export async function createTestDataSource(name: string, migrations: Migrations = []): Promise<DataSource> {
  const safeName = name
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 30);
  const databaseName = `pixauto_test_${safeName}_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE "${databaseName}" TEMPLATE template0 LC_COLLATE 'C'`));
  const dataSource = new DataSource({
    type: 'postgres',
    url: Object.assign(new URL(serverUrl()), { pathname: `/${databaseName}` }).toString(),
    migrations: [...EVENT_STORE_MIGRATIONS, ...(Array.isArray(migrations) ? migrations : Object.values(migrations))],
    synchronize: false,
    migrationsRun: false,
    extra: { max: 30 },
  });
  databaseNames.set(dataSource, databaseName);
  try {
    await dataSource.initialize();
    await runMigrations(dataSource);
  } catch (error) {
    await dropTestDataSource(dataSource);
    throw error;
  }
  return dataSource;
}

/** Closes the data source and drops its database, whoever else is still connected to it. */
export async function dropTestDataSource(dataSource: DataSource | undefined): Promise<void> {
  if (!dataSource) return;
  const databaseName = databaseNames.get(dataSource);
  if (dataSource.isInitialized) await dataSource.destroy();
  if (databaseName) await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
}

/** Until a session of the test database waits on `waitEvent` (Lock: blocked by another transaction; PgSleep: in pg_sleep). */
export async function waitForSession(dataSource: DataSource, waitEvent: 'Lock' | 'PgSleep'): Promise<void> {
  const sql = 'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND (wait_event = $1 OR wait_event_type = $1)';
  await until(async () => (await dataSource.query(sql, [waitEvent]))[0].count > 0, {
    timeoutMs: 5000,
    intervalMs: 25,
    what: `a session waiting on ${waitEvent}`,
  });
}

/** Another pool on the same test database, as a second replica of a service would have (the caller destroys it). */
export async function openReplicaDataSource(dataSource: DataSource, max = 10): Promise<DataSource> {
  const url = dataSource.options.type === 'postgres' ? String(dataSource.options.url) : '';
  return new DataSource({ type: 'postgres', url, extra: { max } }).initialize();
}
