// What every benchmark script shares: the bench profile's databases, a client for one statement, JSON over HTTP, wrk.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PROFILES, ROOT } from './system.cjs';

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

/**
 * wrk at 20 connections for `seconds`, GETting `paths` at random from `base` with `headers` (deploy/bench/paths.lua;
 * `headers.signatures` may map each path to its own X-Signature). Every request must succeed.
 */
export function wrkPaths(name, base, headers, paths, seconds) {
  const file = path.join(ROOT, '.data', 'bench', 'paths.txt');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${paths.join('\n')}\n`);
  const run = spawnSync('wrk', ['-t2', '-c20', `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', path.join(ROOT, 'deploy', 'bench', 'paths.lua'), base], {
    env: { ...process.env, HEADERS_JSON: JSON.stringify(headers), PATHS_FILE: file },
    encoding: 'utf8',
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${name}: wrk printed no result\n${run.stdout}${run.stderr}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  if (result.failed > 0) throw new Error(`${name}: ${result.failed} of ${result.requests} requests failed`);
  return { name, rps: Math.round(result.requests / result.seconds), p50: result.p50_ms, p99: result.p99_ms };
}
