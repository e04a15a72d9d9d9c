// What every benchmark script shares: the bench profile's databases, a client for one statement, JSON over HTTP.
import pg from 'pg';
import { PROFILES } from './system.cjs';

export const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of one of the bench system's databases, e.g. benchDatabaseUrl('limits'). */
export const benchDatabaseUrl = (service) => Object.assign(new URL(serverUrl), { pathname: `/${PROFILES.bench.databasePrefix}_${service}` }).toString();

/** Runs `work` with a client of its own on `url`, closed afterwards. */
export async function onDatabase(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Every database of the bench profile, dropped: each run starts from nothing and leaves nothing. */
export const dropBenchDatabases = () =>
  onDatabase(serverUrl, async (client) => {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${PROFILES.bench.databasePrefix}\\_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  });

/** A JSON answer, or an error naming the URL and what came back. */
export async function json(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}
