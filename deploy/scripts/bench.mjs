// npm run bench: POST and GET /v2/limits through the gateway, beside the same calls made to limits-service
// directly (no gateway: no key lookup, no second HTTP hop) in the same run, so each figure reads as a ratio.
// Load comes from wrk (C, Debian package; installed when missing) so the client takes as little as possible of
// the two cores the system runs on. Bounded: a fixed duration per phase, loopback only.
// Options: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_SKIP_BUILD (use dist/ as it is).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { up } from './infra.mjs';
import { PROFILES, ROOT, startSystem } from './system.cjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN_TOKEN = 'bench-admin-token';
const SCRIPT = path.join(ROOT, 'deploy', 'bench', 'limits.lua');
const p = PROFILES.bench;

function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  console.log('[bench] installing wrk (Debian package)');
  execFileSync('sh', ['-c', 'apt-get install -y wrk >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y wrk >/dev/null)'], { stdio: 'inherit' });
}

async function dropBenchDatabases() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${p.databasePrefix}\\_%`]);
  for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  await client.end();
}

async function writtenDocuments(limit) {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${p.databasePrefix}_limits`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const { rows } = await client.query('SELECT document_number FROM customer_limits ORDER BY random() LIMIT $1', [limit]);
  await client.end();
  return rows.map((row) => row.document_number);
}

async function json(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One wrk phase; every request must succeed, or the figure means nothing. */
function phase(name, port, env) {
  const run = spawnSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', SCRIPT, `http://127.0.0.1:${port}`], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${name}: wrk printed no result\n${run.stdout}${run.stderr}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  if (result.failed > 0) throw new Error(`${name}: ${result.failed} of ${result.requests} requests failed: ${line}`);
  return { name, rps: Math.round(result.requests / result.seconds), p50: result.p50_ms, p99: result.p99_ms, total: result.requests };
}

ensureWrk();
await up();
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
await dropBenchDatabases();
const system = await startSystem({ profile: 'bench', adminToken: ADMIN_TOKEN });
try {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const account = await json(`http://127.0.0.1:${p.admin}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench' }) });
  const key = await json(`http://127.0.0.1:${p.admin}/admin/accounts/${account.account_id}/api-keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ environment: 'production' }),
  });
  const direct = { TENANT_ACCOUNT: account.account_id };
  const gateway = { API_KEY: key.api_key };

  const results = [];
  results.push(phase('POST direct', p.limits, { ...direct, MODE: 'post', BASE: '100000000' }));
  results.push(phase('POST gateway', p.gateway, { ...gateway, MODE: 'post', BASE: '300000000' }));
  // GETs read limits that the POST phases wrote.
  const documents = path.join(ROOT, '.data', 'bench', 'documents.txt');
  fs.mkdirSync(path.dirname(documents), { recursive: true });
  fs.writeFileSync(documents, (await writtenDocuments(10_000)).join('\n') + '\n');
  results.push(phase('GET direct', p.limits, { ...direct, MODE: 'get', DOCUMENTS_FILE: documents }));
  results.push(phase('GET gateway', p.gateway, { ...gateway, MODE: 'get', DOCUMENTS_FILE: documents }));

  const byName = Object.fromEntries(results.map((r) => [r.name, r]));
  const lines = [
    `POST and GET /v2/limits, wrk ${CONNECTIONS} connections, ${SECONDS} s per phase`,
    '',
    '| phase | req/s | p50 ms | p99 ms | gateway / direct req/s |',
    '|---|---:|---:|---:|---:|',
    ...results.map((r) => {
      const base = byName[r.name.replace('gateway', 'direct')];
      return `| ${r.name} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.rps / base.rps).toFixed(2)} |`;
    }),
  ];
  console.log(`\n${lines.join('\n')}`);
  fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'limits.md'), `${lines.join('\n')}\n`);
} finally {
  await system.stop();
  await dropBenchDatabases();
}
