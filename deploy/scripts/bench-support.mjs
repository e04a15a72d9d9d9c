// What every benchmark script shares: the bench profile's databases, a client for one statement, JSON over HTTP, wrk,
// the tools it needs, and the tiny mode that `npm test` runs every bench in.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PROFILES, ROOT } from './system.cjs';

/**
 * BENCH_SMOKE=1: the bench in a tiny mode (a few seconds, a small N) on the same code path as the real run, so that
 * `npm test` proves each bench still runs (deploy/tests/benches.smoke.spec.ts). Its figures mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** A numeric setting: the variable when set, else the real run's default, or `tiny` under BENCH_SMOKE=1. */
export function setting(variable, full, tiny = full) {
  const value = Number(process.env[variable] ?? (SMOKE ? tiny : full));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${variable}=${process.env[variable]} is not a positive number`);
  return value;
}

/**
 * How long a pgbench phase runs: `seconds`, or under BENCH_SMOKE=1 three transactions per client (a 1 s phase on a
 * loaded machine can end before a client has connected, and pgbench then prints no rate).
 */
export const pgbenchLength = (seconds) => (SMOKE ? ['-t', '3'] : [`-T${seconds}`]);

/** The Debian package of each command a bench runs. */
const PACKAGES = { wrk: 'wrk', pgbench: 'postgresql-client', psql: 'postgresql-client' };

/**
 * The commands a bench runs (wrk, pgbench, psql), installed from Debian's packages when missing, as `npm start`
 * installs PostgreSQL and Redis; where they cannot be installed (not root, no apt-get), an error naming the package.
 */
export function ensureTools(commands) {
  const missing = () => commands.filter((command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status !== 0);
  const packages = [...new Set(missing().map((command) => PACKAGES[command]))];
  if (packages.length === 0) return;
  const install = `apt-get install -y -q --no-install-recommends ${packages.join(' ')}`;
  if (process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0) {
    console.log(`[bench] installing ${packages.join(', ')} (Debian packages)`);
    spawnSync('sh', ['-c', `${install} >/dev/null 2>&1 || (apt-get update -q >/dev/null && ${install} >/dev/null)`], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const still = missing();
  if (still.length > 0)
    throw new Error(
      `this bench runs ${still.join(', ')}: install the Debian package ${[...new Set(still.map((command) => PACKAGES[command]))].join(' ')} (apt-get install, as root)`,
    );
}

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

/** The `count` column of a statement's first row, as a number (`SELECT count(*) ...`). */
export const countOf = async (db, sql, values) => Number((await db.query(sql, values)).rows[0].count);

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
