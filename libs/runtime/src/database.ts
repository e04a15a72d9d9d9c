import { Client } from 'pg';
import { Migrations } from '@pixauto/event-store';
import { databaseUrl, ServiceConfig } from './config';

/**
 * Creates the service's database when missing (platform: one database per service, created on first start). Text is
 * ordered byte by byte (COLLATE "C"): the keys are ids, and the server's locale (C.UTF-8 here) would compare every
 * one of them through strcoll (measured: ~5% of PostgreSQL's CPU under the charge scheduler).
 */
export async function ensureDatabase(config: ServiceConfig): Promise<void> {
  const client = new Client({ connectionString: config.databaseServerUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [config.databaseName]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${config.databaseName}" TEMPLATE template0 LC_COLLATE 'C'`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error; // created meanwhile by another instance
      });
    }
  } finally {
    await client.end();
  }
}

export function dataSourceOptions(config: ServiceConfig, migrations: Migrations) {
  return {
    type: 'postgres' as const,
    url: databaseUrl(config),
    migrations,
    synchronize: false,
    migrationsRun: false,
    // A request waits this long for a connection, then is answered 503 (docs/decisions/overload-and-outages.md
    // "Overload"), never queued forever.
    extra: { max: config.databasePoolSize, connectionTimeoutMillis: config.databasePoolWaitMs },
  };
}
