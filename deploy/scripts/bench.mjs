// npm run bench: POST and GET /v2/limits and POST /v2/payout/pix through the gateway (wrk: C, light, so the two cores go to the system),
// beside the database alone running the very SQL those requests run (pgbench on the same database, same
// connections), in the same run: each figure reads as a ratio of what PostgreSQL can do here.
// Bounded: a fixed duration per phase, loopback only.
// Options: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_SKIP_BUILD (use dist/ as it is).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDatabaseUrl, dropBenchDatabases, json, onDatabase } from './bench-support.mjs';
import { up } from './infra.mjs';
import { PROFILES, ROOT, startSystem } from './system.cjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN_TOKEN = 'bench-admin-token';
const BENCH = path.join(ROOT, 'deploy', 'bench');
const p = PROFILES.bench;
const limitsDatabaseUrl = benchDatabaseUrl('limits');

function ensureTools() {
  if (spawnSync('wrk', ['--version']).error === undefined && spawnSync('pgbench', ['--version']).error === undefined) return;
  console.log('[bench] installing wrk and pgbench (Debian packages)');
  const install = 'apt-get install -y wrk postgresql-client >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y wrk postgresql-client >/dev/null)';
  execFileSync('sh', ['-c', install], { stdio: 'inherit' });
}




/** CPU seconds used so far by each app of the system, by PostgreSQL (all its processes) and by the Kafka broker. */
function cpuSeconds(system) {
  const ticks = (pid) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
    } catch {
      return 0; // gone meanwhile
    }
  };
  const pidsOf = (pattern) => spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  const used = Object.fromEntries(system.apps.map((name) => [name, ticks(system.pidOf(name))]));
  used.postgresql = pidsOf('^postgres').reduce((sum, pid) => sum + ticks(pid), 0);
  used.kafka = pidsOf('kafka.Kafka').reduce((sum, pid) => sum + ticks(pid), 0);
  return Object.fromEntries(Object.entries(used).map(([name, t]) => [name, t / 100]));
}

/** One wrk phase through the gateway; every request must succeed, or the figure means nothing. */
function gatewayPhase(name, env, system) {
  const before = cpuSeconds(system);
  const run = spawnSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--timeout', '10s', '--latency', '-s', path.join(BENCH, 'limits.lua'), `http://127.0.0.1:${p.gateway}`], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${name}: wrk printed no result\n${run.stdout}${run.stderr}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  if (result.failed > 0) throw new Error(`${name}: ${result.failed} of ${result.requests} requests failed: ${line}`);
  const after = cpuSeconds(system);
  // CPU per request, by process: where a request's cost goes (work the phase left queued, like payouts still settling, is not counted).
  const cpuMsPerRequest = Object.fromEntries(Object.keys(after).map((process) => [process, ((after[process] - before[process]) * 1000) / result.requests]));
  return { name, rps: Math.round(result.requests / result.seconds), p50: result.p50_ms, p99: result.p99_ms, cpuMsPerRequest };
}

/** One pgbench phase: the same SQL on the same database with as many connections; latencies from its per-transaction log. */
function databasePhase(name, script, variables = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbench-'));
  const defines = Object.entries(variables).flatMap(([key, value]) => ['-D', `${key}=${value}`]);
  const run = spawnSync('pgbench', ['-n', '-M', 'extended', `-c${CONNECTIONS}`, '-j2', `-T${SECONDS}`, '-l', ...defines, '-f', path.join(BENCH, script), limitsDatabaseUrl], {
    cwd: dir,
    encoding: 'utf8',
  });
  const failed = Number(run.stdout.match(/number of failed transactions: (\d+)/)?.[1] ?? 0);
  if (run.status !== 0 || failed > 0) {
    throw new Error(`${name}: pgbench failed\n${run.stdout}${run.stderr}`);
  }
  const latenciesMs = fs
    .readdirSync(dir)
    .flatMap((file) => fs.readFileSync(path.join(dir, file), 'utf8').trim().split('\n'))
    .map((line) => Number(line.split(' ')[2]) / 1000)
    .sort((a, b) => a - b);
  fs.rmSync(dir, { recursive: true, force: true });
  const percentile = (q) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))];
  const tps = Number(run.stdout.match(/tps = ([\d.]+) \(without initial connection time\)/)[1]);
  return { name, rps: Math.round(tps), p50: percentile(0.5), p99: percentile(0.99) };
}

ensureTools();
await up();
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
await dropBenchDatabases();
const results = [];
try {
  const system = await startSystem({ profile: 'bench', adminToken: ADMIN_TOKEN });
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const account = await json(`http://127.0.0.1:${p.admin}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench' }) });
    const key = await json(`http://127.0.0.1:${p.admin}/admin/accounts/${account.account_id}/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ environment: 'production' }),
    });
    results.push(gatewayPhase('POST /v2/limits through the gateway', { API_KEY: key.api_key, MODE: 'post', BASE: '100000000' }, system));
    const documents = path.join(ROOT, '.data', 'bench', 'documents.txt');
    fs.mkdirSync(path.dirname(documents), { recursive: true });
    const written = await onDatabase(limitsDatabaseUrl, (client) => client.query('SELECT document_number FROM customer_limits ORDER BY random() LIMIT 10000'));
    fs.writeFileSync(documents, written.rows.map((row) => row.document_number).join('\n') + '\n');
    results.push(gatewayPhase('GET /v2/limits through the gateway', { API_KEY: key.api_key, MODE: 'get', DOCUMENTS_FILE: documents }, system));
    // Payouts also go to the bank behind us (the sender, in the background) while the phase runs, as in production.
    results.push(gatewayPhase('POST /v2/payout/pix through the gateway', { API_KEY: key.api_key, MODE: 'payout', BASE: String(200000000 + Math.floor(Date.now() / 1000) % 100000) }, system));
  } finally {
    // The baseline writes straight to the tables: no service may be publishing its outbox meanwhile.
    await system.stop();
  }
  results.push(databasePhase('POST SQL, database alone', 'limits-post.sql'));
  const documents = await onDatabase(limitsDatabaseUrl, async (client) => {
    await client.query(`CREATE TABLE bench_documents AS SELECT row_number() OVER () AS i, account_id, document_number FROM customer_limits WHERE account_id <> 'pgbench'`);
    await client.query('ALTER TABLE bench_documents ADD PRIMARY KEY (i)');
    return Number((await client.query('SELECT count(*) FROM bench_documents')).rows[0].count);
  });
  results.push(databasePhase('GET SQL, database alone', 'limits-get.sql', { documents }));
} finally {
  await dropBenchDatabases();
}

const [postGateway, getGateway, payoutGateway, postDatabase, getDatabase] = results;
const row = (r, base) => `| ${r.name} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${base ? (r.rps / base.rps).toFixed(2) : '1.00'} |`;
const lines = [
  `/v2/limits, ${CONNECTIONS} connections, ${SECONDS} s per phase (wrk through the gateway; pgbench for the database alone)`,
  '',
  '| phase | req/s | p50 ms | p99 ms | ratio to the database alone |',
  '|---|---:|---:|---:|---:|',
  row(postGateway, postDatabase),
  row(postDatabase),
  row(getGateway, getDatabase),
  row(getDatabase),
  row(payoutGateway, postDatabase),
  '',
  'CPU ms per request, by process (from /proc, over each phase)',
  '',
  `| phase | ${Object.keys(postGateway.cpuMsPerRequest).join(' | ')} |`,
  `|---|${Object.keys(postGateway.cpuMsPerRequest).map(() => '---:').join('|')}|`,
  ...[postGateway, getGateway, payoutGateway].map((r) => `| ${r.name} | ${Object.values(r.cpuMsPerRequest).map((ms) => ms.toFixed(2)).join(' | ')} |`),
];
console.log(`\n${lines.join('\n')}`);
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'limits.md'), `${lines.join('\n')}\n`);
