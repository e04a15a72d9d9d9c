import { Client } from 'pg';
import { DataSource, MixedList } from 'typeorm';
import { databaseUrl, ServiceConfig } from './config';

/** Creates the service's database when missing (platform: one database per service, created on first start). */
export async function ensureDatabase(config: ServiceConfig): Promise<void> {
  const client = new Client({ connectionString: config.databaseServerUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [config.databaseName]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${config.databaseName}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error; // created meanwhile by another instance
      });
    }
  } finally {
    await client.end();
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type Migrations = MixedList<Function>;

export function dataSourceOptions(config: ServiceConfig, migrations: Migrations) {
  return {
    type: 'postgres' as const,
    url: databaseUrl(config),
    migrations,
    synchronize: false,
    migrationsRun: false,
    extra: { max: Number(process.env.DATABASE_POOL_SIZE ?? 20) },
  };
}

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
