import { Client } from 'pg';

/** Reads a service's own database directly, to prove what a request did or did not leave behind. */
export async function queryService(databasePrefix: string, service: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${databasePrefix}_${service}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}
