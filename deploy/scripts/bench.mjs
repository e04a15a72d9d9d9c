// npm run bench: create and get a recurrence, create and get a limit, create a payout, through the gateway (wrk: C,
// light, so the two cores go to the system), at 50 and at 200 connections (answers counted by status: overload must
// be answered, never a 5xx), beside the database alone running the very SQL a limit's requests run (pgbench on the
// same database, same connections) in the same run: each figure reads as a ratio of what PostgreSQL can do here.
// Bounded: a fixed duration per phase, loopback only.
// Then the hooks phase: the price of each of the gateway's per-request hooks, each turned off in a run of its own.
// Options: BENCH_SECONDS (10), BENCH_CONNECTIONS (50,200), BENCH_PHASES (recurrences,limits,payouts,hooks: which
// gateway phases run; pgbench's always do), BENCH_HOOKS_SECONDS (5 per workload and run), BENCH_HOOKS_ROUNDS (2),
// BENCH_HOOKS_CONNECTIONS (50), BENCH_HOOKS (which hooks the hooks phase prices, comma-separated: all of them, then all
// at once, by default), BENCH_SKIP_BUILD (use dist/ as it is), BENCH_SMOKE=1 (tiny: 1 s a phase at 4
// connections, and the hooks phase with every hook on, then every hook off: what `npm test` runs), BENCH_REST_SECONDS
// (10: the system at rest, before any load).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { benchDatabaseUrl, dropBenchDatabases, ensureTools, json, onDatabase, pgbenchLength, setting, SMOKE } from './bench-support.mjs';
import { up } from './infra.mjs';
import { PROFILES, ROOT, startSystem } from './system.cjs';

const SECONDS = setting('BENCH_SECONDS', 10, 1);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? (SMOKE ? '4' : '50,200')).split(',').map(Number);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'recurrences,limits,payouts,hooks').split(','));
const HOOKS_SECONDS = setting('BENCH_HOOKS_SECONDS', 5, 1);
const HOOKS_ROUNDS = setting('BENCH_HOOKS_ROUNDS', 2, 1);
const HOOKS_CONNECTIONS = setting('BENCH_HOOKS_CONNECTIONS', 50, 4);
const REST_SECONDS = setting('BENCH_REST_SECONDS', 10, 1);
const PGBENCH_MAX_CLIENTS = 90;
const ADMIN_TOKEN = 'bench-admin-token';
const BENCH = path.join(ROOT, 'deploy', 'bench');
const p = PROFILES.bench;
const limitsDatabaseUrl = benchDatabaseUrl('limits');
const recurrenceDatabaseUrl = benchDatabaseUrl('recurrence');

/** CPU seconds used so far by each app of the system, by PostgreSQL (all its processes), the Kafka broker and Redis. */
function cpuSeconds(system) {
  /** utime + stime in clock ticks; with `reaped`, also the children it has waited for (cutime + cstime). */
  const ticks = (pid, reaped = false) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
    } catch {
      return 0; // gone meanwhile
    }
  };
  const pidsOf = (pattern) => spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  const used = Object.fromEntries(system.apps.map((name) => [name, ticks(system.pidOf(name))]));
  // A backend that exits (a pool closing an idle connection) hands its time to the postmaster, which reaps it.
  const postmaster = spawnSync('pgrep', ['-o', '-x', 'postgres'], { encoding: 'utf8' }).stdout.trim();
  used.postgresql = pidsOf('^postgres').reduce((sum, pid) => sum + ticks(pid), ticks(postmaster, true));
  used.kafka = pidsOf('kafka.Kafka').reduce((sum, pid) => sum + ticks(pid), 0);
  used.redis = pidsOf('^redis-server').reduce((sum, pid) => sum + ticks(pid), 0);
  return Object.fromEntries(Object.entries(used).map(([name, t]) => [name, t / 100]));
}

/** Transactions committed so far in each of the system's databases (PostgreSQL's statistics, flushed within a second). */
function commitsByDatabase() {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const sql = `SELECT datname, xact_commit FROM pg_stat_database WHERE datname LIKE '${p.databasePrefix}\\_%'`;
  const run = spawnSync('psql', [url.toString(), '-Atc', sql], { encoding: 'utf8' });
  return Object.fromEntries(
    run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('|'))
      .map(([name, commits]) => [name.slice(p.databasePrefix.length + 1), Number(commits)]),
  );
}

/** wrk through the gateway with deploy/bench/merchant.lua for `seconds`: its result, and what did not succeed by status. */
function wrk(name, connections, seconds, env) {
  const run = spawnSync(
    'wrk',
    ['-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', path.join(BENCH, 'merchant.lua'), `http://127.0.0.1:${p.gateway}`],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`${name}: wrk printed no result\n${run.stdout}${run.stderr}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  const errors = { ...result.by_status };
  for (const kind of ['connect', 'read', 'write', 'timeout']) if (result[kind] > 0) errors[kind] = result[kind];
  return { ...result, errors, rps: Math.round((result.requests - result.failed) / result.seconds) };
}

/** CPU ms per request of each process between two readings of cpuSeconds. */
const cpuMsPer = (requests, before, after) =>
  Object.fromEntries(Object.keys(after).map((process) => [process, ((after[process] - before[process]) * 1000) / requests]));

/** One wrk phase through the gateway; what did not succeed is counted by status (a socket error or timeout as such). */
function gatewayPhase(name, connections, env, system) {
  const before = cpuSeconds(system);
  const commitsBefore = commitsByDatabase();
  const result = wrk(name, connections, SECONDS, env);
  // CPU per request, by process: where a request's cost goes (work the phase left queued, like payouts still settling, is not counted).
  const cpuMsPerRequest = cpuMsPer(result.requests, before, cpuSeconds(system));
  // Commits by database per request (what the request and the consumers it set off wrote), counted once the
  // statistics and the consumers have caught up.
  spawnSync('sleep', ['2']);
  const commitsAfter = commitsByDatabase();
  const commitsPerRequest = Object.fromEntries(
    Object.entries(commitsAfter)
      .map(([db, n]) => [db, (n - (commitsBefore[db] ?? 0)) / result.requests])
      .filter(([, n]) => n >= 0.05),
  );
  return { name, connections, rps: result.rps, p50: result.p50_ms, p99: result.p99_ms, errors: result.errors, cpuMsPerRequest, commitsPerRequest };
}

/**
 * The system at rest, before any load: what each process spends per second with no request at all (timers, polls,
 * consumers' fetches, heartbeats). Every phase's CPU per request carries its share of it.
 */
function restPhase(system) {
  spawnSync('sleep', ['3']); // the account just made, its events followed
  const before = cpuSeconds(system);
  const commitsBefore = commitsByDatabase();
  const started = performance.now();
  spawnSync('sleep', [String(REST_SECONDS)]);
  const after = cpuSeconds(system);
  const commitsAfter = commitsByDatabase();
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    cpuMsPerSecond: Object.fromEntries(Object.keys(after).map((process) => [process, ((after[process] - before[process]) * 1000) / seconds])),
    commitsPerSecond: Object.fromEntries(Object.entries(commitsAfter).map(([db, n]) => [db, (n - (commitsBefore[db] ?? 0)) / seconds])),
  };
}

/** The CPU a request costs us: every process but the bank simulator (in production, the bank's own CPU). */
const oursOf = (byProcess) => Object.entries(byProcess).reduce((sum, [process, ms]) => (process === 'bank-simulator' ? sum : sum + ms), 0);

/** One pgbench phase: the same SQL on the same database with as many connections; latencies from its per-transaction log. */
function databasePhase(name, connections, script, variables = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbench-'));
  const defines = Object.entries(variables).flatMap(([key, value]) => ['-D', `${key}=${value}`]);
  const run = spawnSync(
    'pgbench',
    ['-n', '-M', 'extended', `-c${connections}`, '-j2', ...pgbenchLength(SECONDS), '-l', ...defines, '-f', path.join(BENCH, script), limitsDatabaseUrl],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
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
  const tps = Number(run.stdout.match(/tps = ([\d.]+) \(without initial connection time\)/)?.[1] ?? NaN);
  if (Number.isNaN(tps)) throw new Error(`${name}: pgbench printed no rate\n${run.stdout}${run.stderr}`);
  return { name, connections, rps: Math.round(tps), p50: percentile(0.5), p99: percentile(0.99), errors: {} };
}

/** A sample of what the POST phases created, for the GET phases to read: a file of one value a line. */
async function sample(url, sql, file) {
  const { rows } = await onDatabase(url, (client) => client.query(sql));
  const target = path.join(ROOT, '.data', 'bench', file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, rows.map((row) => Object.values(row)[0]).join('\n') + '\n');
  return target;
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * The hooks phase: what each of the gateway's per-request hooks (apps/api-gateway/src/hooks.ts) costs, as the
 * gateway's CPU per request and req/s with every hook on and with that hook off (GATEWAY_HOOKS_OFF), and with all of
 * them off. Only the gateway is restarted between runs, before every run (each starts as cold as the others), then
 * warmed. Runs alternate: all on, one hook off, all on, the next off, ..., all on, the order reversed in every other
 * round; a hook's "on" is the mean of the runs just before and after its own, so a drift of the machine weighs on
 * both alike. Three workloads per run, after one another: two reads (a limit, not follower-fed; a recurrence, which
 * asks Redis for the merchant's recent writes) and a write (a limit, each with an Idempotency-Key of its own).
 */
async function hooksPhase(system, apiKey, startDate) {
  // The hooks the built gateway has, from the file it reads them from (a hook named here that it lacks stops the run).
  const { GATEWAY_HOOKS } = createRequire(import.meta.url)(path.join(ROOT, 'dist', 'apps', 'api-gateway', 'src', 'hooks.js'));
  const connections = HOOKS_CONNECTIONS;
  const base = 700000000 + (Math.floor(Date.now() / 1000) % 1000000);
  let invocation = 0;
  /** wrk with the bench's key; each invocation's POSTs name customers and Idempotency-Keys of their own. */
  const load = (name, seconds, env) => wrk(name, connections, seconds, { API_KEY: apiKey, BASE: String(base + ++invocation * 100000), ...env });
  const seed = SMOKE ? 1 : 2;
  load('seed: POST /v2/automatic-pix/recurrences', seed, { MODE: 'recurrence', START_DATE: startDate });
  load('seed: POST /v2/limits', seed, { MODE: 'post' });
  const ids = await sample(recurrenceDatabaseUrl, 'SELECT recurrence_id FROM recurrences ORDER BY random() LIMIT 10000', 'hooks-recurrence-ids.txt');
  const documents = await sample(limitsDatabaseUrl, 'SELECT document_number FROM customer_limits ORDER BY random() LIMIT 10000', 'hooks-documents.txt');
  const workloads = [
    { name: 'GET /v2/limits', env: { MODE: 'get', DOCUMENTS_FILE: documents } },
    { name: 'GET /v2/automatic-pix/recurrences/:id', env: { MODE: 'recurrence-get', IDS_FILE: ids } },
    { name: 'POST /v2/limits (Idempotency-Key)', env: { MODE: 'post', IDEMPOTENCY: '1' } },
  ];
  const runs = [];
  /** One run: the gateway started again with `off` (a hook, 'all', or none), warmed, then each workload measured. */
  const measure = async (off) => {
    const names = off === 'all' ? GATEWAY_HOOKS.join(',') : (off ?? '');
    await system.restart('api-gateway', { GATEWAY_HOOKS_OFF: names, SHUTDOWN_DELAY_MS: '0' });
    const figures = {};
    for (const workload of workloads) {
      if (!SMOKE) load(`warm-up: ${workload.name}`, 1, workload.env);
      const before = cpuSeconds(system);
      const result = load(workload.name, HOOKS_SECONDS, workload.env);
      const cpu = cpuMsPer(result.requests, before, cpuSeconds(system));
      const failed = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
      figures[workload.name] = { rps: result.rps, gatewayMs: cpu['api-gateway'], systemMs: Object.values(cpu).reduce((sum, ms) => sum + ms, 0), failed };
    }
    runs.push({ off, figures });
  };
  const variants = SMOKE ? ['all'] : process.env.BENCH_HOOKS ? process.env.BENCH_HOOKS.split(',') : [...GATEWAY_HOOKS, 'all'];
  for (let round = 0; round < HOOKS_ROUNDS; round++) {
    for (const off of round % 2 === 0 ? variants : [...variants].reverse()) {
      await measure(undefined);
      await measure(off);
    }
  }
  // The last hook's "after" (the tiny mode has only a "before").
  if (!SMOKE) await measure(undefined);
  // Each run with a hook off, beside the mean of the all-on runs just before and after it.
  const rows = variants.map((off) => {
    const pairs = runs.flatMap((run, i) => (run.off === off ? [{ on: [runs[i - 1], runs[i + 1]].filter(Boolean), off: run }] : []));
    const byWorkload = Object.fromEntries(
      workloads.map(({ name }) => {
        const figure = (run, key) => run.figures[name][key];
        const on = (key) => mean(pairs.map((pair) => mean(pair.on.map((run) => figure(run, key)))));
        const offOf = (key) => mean(pairs.map((pair) => figure(pair.off, key)));
        const prices = pairs.map((pair) => mean(pair.on.map((run) => figure(run, 'gatewayMs'))) - figure(pair.off, 'gatewayMs'));
        return [
          name,
          {
            rpsOn: on('rps'),
            rpsOff: offOf('rps'),
            gatewayOn: on('gatewayMs'),
            gatewayOff: offOf('gatewayMs'),
            systemOn: on('systemMs'),
            systemOff: offOf('systemMs'),
            prices,
          },
        ];
      }),
    );
    return { off, byWorkload };
  });
  const allOn = Object.fromEntries(
    workloads.map(({ name }) => {
      const on = runs.filter((run) => run.off === undefined).map((run) => run.figures[name]);
      const range = (key, digits) => `${Math.min(...on.map((f) => f[key])).toFixed(digits)}-${Math.max(...on.map((f) => f[key])).toFixed(digits)}`;
      return [name, { rps: range('rps', 0), gatewayMs: range('gatewayMs', 3), runs: on.length }];
    }),
  );
  const failed = runs.reduce((sum, run) => sum + Object.values(run.figures).reduce((n, figure) => n + figure.failed, 0), 0);
  return { connections, workloads: workloads.map(({ name }) => name), rows, allOn, failed };
}

ensureTools(['wrk', 'pgbench', 'psql']);
await up();
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
await dropBenchDatabases();
/** Tomorrow in Brasília: the first day a recurrence may start. */
const startDate = new Date(Date.now() - 3 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
const results = [];
let hooks;
let rest;
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
    rest = restPhase(system);
    for (const [level, connections] of LEVELS.entries()) {
      const base = String(100000000 + level * 50000000 + (Math.floor(Date.now() / 1000) % 1000000));
      const run = (name, env) => results.push(gatewayPhase(name, connections, { API_KEY: key.api_key, ...env }, system));
      if (PHASES.has('recurrences')) {
        run('POST /v2/automatic-pix/recurrences', { MODE: 'recurrence', BASE: base, START_DATE: startDate });
        const ids = await sample(recurrenceDatabaseUrl, 'SELECT recurrence_id FROM recurrences ORDER BY random() LIMIT 10000', 'recurrence-ids.txt');
        run('GET /v2/automatic-pix/recurrences/:id', { MODE: 'recurrence-get', IDS_FILE: ids });
      }
      if (PHASES.has('limits')) {
        run('POST /v2/limits', { MODE: 'post', BASE: base });
        const documents = await sample(limitsDatabaseUrl, 'SELECT document_number FROM customer_limits ORDER BY random() LIMIT 10000', 'documents.txt');
        run('GET /v2/limits', { MODE: 'get', DOCUMENTS_FILE: documents });
      }
      // Payouts also go to the bank behind us (the sender, in the background) while the phase runs, as in production.
      if (PHASES.has('payouts')) run('POST /v2/payout/pix', { MODE: 'payout', BASE: String(Number(base) + 25000000) });
    }
    if (PHASES.has('hooks')) hooks = await hooksPhase(system, key.api_key, startDate);
  } finally {
    // The baseline writes straight to the tables: no service may be publishing its outbox meanwhile.
    await system.stop();
  }
  const documents = await onDatabase(limitsDatabaseUrl, async (client) => {
    await client.query(
      `CREATE TABLE bench_documents AS SELECT row_number() OVER () AS i, account_id, document_number FROM customer_limits WHERE account_id <> 'pgbench'`,
    );
    await client.query('ALTER TABLE bench_documents ADD PRIMARY KEY (i)');
    return Number((await client.query('SELECT count(*) FROM bench_documents')).rows[0].count);
  });
  // PostgreSQL takes 100 connections in all: pgbench's clients stop short of it (the system's own pools hold 92).
  const levels = [...LEVELS, ...(hooks ? [hooks.connections] : [])];
  for (const connections of new Set(levels.map((level) => Math.min(level, PGBENCH_MAX_CLIENTS)))) {
    results.push(databasePhase('POST /v2/limits SQL (event, outbox, read model), database alone', connections, 'limits-post.sql'));
    if (documents > 0) results.push(databasePhase('GET /v2/limits SQL, database alone', connections, 'limits-get.sql', { documents }));
  }
} finally {
  await dropBenchDatabases();
}

const errorsOf = (r) =>
  Object.entries(r.errors)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ') || 'none';
const fivexx = results.reduce(
  (sum, r) =>
    sum +
    Object.entries(r.errors)
      .filter(([status]) => Number(status) >= 500 && Number(status) < 600)
      .reduce((n, [, count]) => n + count, 0),
  0,
);
const gateway = results.filter((r) => r.cpuMsPerRequest);

/** The hooks phase's tables: each hook's price in the gateway's CPU per request, then each workload's figures. */
function hooksLines({ connections, workloads, rows, allOn, failed }) {
  const ms = (value) => value.toFixed(3);
  const label = (off) => (off === 'all' ? 'all of them' : off);
  /** PostgreSQL alone running the very SQL of a workload, at as many clients: the floor under it. */
  const alone = {
    'GET /v2/limits': results.find((r) => r.name.startsWith('GET /v2/limits SQL') && r.connections === Math.min(connections, PGBENCH_MAX_CLIENTS)),
    'POST /v2/limits (Idempotency-Key)': results.find(
      (r) => r.name.startsWith('POST /v2/limits SQL') && r.connections === Math.min(connections, PGBENCH_MAX_CLIENTS),
    ),
  };
  return [
    '',
    `Gateway hooks, each off in a run of its own (GATEWAY_HOOKS_OFF): ${connections} connections, ${HOOKS_SECONDS} s per workload and run, ` +
      `${HOOKS_ROUNDS} round${HOOKS_ROUNDS > 1 ? 's' : ''}; only the gateway restarted before each run. ` +
      "A hook's price: the gateway's CPU ms per request with every hook on (the runs just before and after) minus with it off",
    '',
    `| hook off | ${workloads.join(' | ')} |`,
    `|---|${workloads.map(() => '---:').join('|')}|`,
    ...rows.map(
      ({ off, byWorkload }) =>
        `| ${label(off)} | ${workloads
          .map((name) => {
            const w = byWorkload[name];
            return `${ms(w.gatewayOn - w.gatewayOff)} (${Math.round((100 * (w.gatewayOn - w.gatewayOff)) / w.gatewayOn)}%)`;
          })
          .join(' | ')} |`,
    ),
    ...workloads.flatMap((name) => [
      '',
      `${name}, ${connections} connections; every hook on, all ${allOn[name].runs} such runs: ${allOn[name].rps} req/s, gateway ${allOn[name].gatewayMs} CPU ms per request`,
      '',
      '| hook off | req/s on | req/s off | gateway CPU ms/request on | off | price | price, each round | every process CPU ms/request on | off |',
      '|---|---:|---:|---:|---:|---:|---|---:|---:|',
      ...rows.map(({ off, byWorkload }) => {
        const w = byWorkload[name];
        return `| ${label(off)} | ${Math.round(w.rpsOn)} | ${Math.round(w.rpsOff)} | ${ms(w.gatewayOn)} | ${ms(w.gatewayOff)} | ${ms(w.gatewayOn - w.gatewayOff)} | ${w.prices.map(ms).join(', ')} | ${ms(w.systemOn)} | ${ms(w.systemOff)} |`;
      }),
      ...(alone[name] ? ['', `PostgreSQL alone, the same SQL (pgbench, ${alone[name].connections} clients, same run): ${alone[name].rps}/s`] : []),
    ]),
    '',
    `Requests not succeeded in the hooks runs: ${failed}`,
  ];
}
const lines = [
  `npm run bench: ${SECONDS} s per phase, wrk through the gateway (one production key; its rate limit, 5,000/s, never reached); pgbench for the database alone`,
  '',
  '| phase | connections | req/s (succeeded) | p50 ms | p99 ms | not succeeded, by status |',
  '|---|---:|---:|---:|---:|---|',
  ...results.map((r) => `| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${errorsOf(r)} |`),
  '',
  `5xx answers in all: ${fivexx}`,
  ...(gateway.length === 0
    ? []
    : [
        '',
        'CPU ms per request, by process (from /proc, over each phase)',
        '',
        `| phase | connections | ${Object.keys(gateway[0].cpuMsPerRequest).join(' | ')} | all but the bank simulator |`,
        `|---|---:|${Object.keys(gateway[0].cpuMsPerRequest)
          .map(() => '---:')
          .join('|')}|---:|`,
        ...gateway.map(
          (r) =>
            `| ${r.name} | ${r.connections} | ${Object.values(r.cpuMsPerRequest)
              .map((ms) => ms.toFixed(2))
              .join(' | ')} | ${oursOf(r.cpuMsPerRequest).toFixed(2)} |`,
        ),
        '',
        'Transactions committed per request, by database (the request, its bank calls and the consumers it set off; idle work included)',
        '',
        ...gateway.map(
          (r) =>
            `- ${r.name}, ${r.connections}: ${Object.entries(r.commitsPerRequest)
              .map(([db, n]) => `${db} ${n.toFixed(2)}`)
              .join(', ')}`,
        ),
      ]),
  ...(rest
    ? [
        '',
        `At rest, before any load (${rest.seconds.toFixed(0)} s, no request): CPU ms per second, by process`,
        '',
        `| ${Object.keys(rest.cpuMsPerSecond).join(' | ')} | all but the bank simulator |`,
        `|${Object.keys(rest.cpuMsPerSecond)
          .map(() => '---:')
          .join('|')}|---:|`,
        `| ${Object.values(rest.cpuMsPerSecond)
          .map((ms) => ms.toFixed(1))
          .join(' | ')} | ${oursOf(rest.cpuMsPerSecond).toFixed(1)} |`,
        '',
        `Transactions committed per second at rest, by database: ${Object.entries(rest.commitsPerSecond)
          .filter(([, n]) => n >= 0.05)
          .map(([db, n]) => `${db} ${n.toFixed(1)}`)
          .join(', ')}`,
      ]
    : []),
  ...(hooks ? hooksLines(hooks) : []),
];
console.log(`\n${lines.join('\n')}`);
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'bench.md'), `${lines.join('\n')}\n`);
