// npm run bench:payouts: the payout lookups over 1,000,000 payouts of 100 accounts (docs/decisions/payout-lookups.md).
// The payouts are written straight into payout-query-service's read model (the shape its projection writes: the
// same table and columns), then, with the whole system running on the bench ports:
//   1. period pages for one account through the gateway, wrk at 20 connections (a day's period, and a month's);
//   2. the customer lookup (a customer with 100 payouts) at 20 connections;
//   3. the CSV of 100,000 rows through the gateway, beside PostgreSQL's own COPY ... TO STDOUT of the same rows
//      (psql to /dev/null), with the peak RSS of every process on the path, sampled every 20 ms.
// Options: BENCH_SECONDS (10), BENCH_PAYOUTS (1000000), BENCH_SKIP_BUILD (use dist/ as it is), BENCH_SMOKE=1 (tiny: 1 s a
// phase over 2,000 payouts, what `npm test` runs). Leaves nothing behind (bench databases dropped).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import {
  benchDatabaseUrl,
  dropBenchDatabases,
  ensureTools,
  json,
  onDatabase,
  pgbenchLength,
  serverUrl,
  setting,
  wrkPaths,
} from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { PROFILES, ROOT, startSystem } from '../../scripts/system.cjs';

// The very COPY and period page statements the service runs, and the daily counts as its projection keeps them, from the built lib
// (loaded once the build has run).
const payoutQueryLib = () => createRequire(import.meta.url)('../../../dist/libs/payout-query/src/index.js');
const periodCsvCopy = (...args) => payoutQueryLib().periodCsvCopy(...args);
const SECONDS = setting('BENCH_SECONDS', 10, 1);
const PAYOUTS = setting('BENCH_PAYOUTS', 1_000_000, 2_000);
const ACCOUNTS = 100;
const MEASURED_SHARE = 10; // every 10th payout is the measured account's: 100,000 rows, the CSV's size
const CUSTOMER = '52998224725'; // 100 payouts of the measured account
const CUSTOMER_EVERY = 10 * Math.max(1, Math.floor(PAYOUTS / 1000)); // every 10,000th of 1,000,000: a multiple of MEASURED_SHARE
const ADMIN_TOKEN = 'bench-admin-token';
const p = PROFILES.bench;
const MONTH_START = new Date('2026-10-01T00:00:00Z');
const MONTH_SECONDS = 30 * 24 * 3600;
const sqlTime = (date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** 1,000,000 payouts in one INSERT ... SELECT: account 0 has every 10th, spread evenly over a month; a mix of statuses. */
async function seed(accountIds) {
  const started = performance.now();
  await onDatabase(benchDatabaseUrl('payout_query'), async (client) => {
    await client.query('TRUNCATE payout_lookups, payout_daily_counts');
    await client.query(
      `INSERT INTO payout_lookups (account_id, environment, id, transaction_id, name, document_number, document_type, amount_centavos, status,
         pix_key, bank_name, bank_code, ispb, account_agency, account_number, webhook, provider, created_at, paid_at, e2e, psp_id, version)
       SELECT a.account_id, 'production', i, 'bench-' || i,
              CASE WHEN i % 7 = 0 THEN 'Silva, "Zé" & Filhos' ELSE 'MARIA SILVA' END,
              CASE WHEN i % ${CUSTOMER_EVERY} = 0 THEN $2 ELSE lpad((i % 100000)::text, 11, '0') END, 'CPF', 1000 + i % 50000,
              (ARRAY[1, 1, 1, 1, 0, 2, 3, 4])[1 + i % 8], 'maria@example.com', 'Itaú Unibanco S.A.', '341', '60701190', '0001', '12345-6',
              CASE WHEN i % 2 = 0 THEN 'https://shop.example.com/payouts' END, 'PROVIDER_A',
              $3::timestamptz + make_interval(secs => (i::double precision / $4) * $5),
              CASE WHEN i % 8 < 4 THEN $3::timestamptz + make_interval(secs => (i::double precision / $4) * $5 + 2) END,
              CASE WHEN i % 8 < 4 THEN 'E60701190202610011200' || lpad(i::text, 11, '0') END, 'PIXAUTOP' || lpad(i::text, 12, '0'), 3
         FROM generate_series(1, $4::int) AS i
         JOIN unnest($1::text[]) WITH ORDINALITY AS a(account_id, n) ON a.n = CASE WHEN i % ${MEASURED_SHARE} = 0 THEN 1 ELSE 2 + i % ${ACCOUNTS - 1} END`,
      [accountIds, CUSTOMER, MONTH_START.toISOString(), PAYOUTS, MONTH_SECONDS],
    );
    await client.query(payoutQueryLib().PAYOUT_DAILY_COUNTS_FROM_ROWS);
    await client.query('VACUUM ANALYZE payout_lookups');
    await client.query('VACUUM ANALYZE payout_daily_counts');
  });
  return (performance.now() - started) / 1000;
}

/** The gateway's answers to a list of paths, wrk at 20 connections. */
const wrkPhase = (name, key, paths) => wrkPaths(name, `http://127.0.0.1:${p.gateway}`, { authorization: key }, paths, SECONDS);

/**
 * PostgreSQL alone: the very statement of a period page (the lib's, its values a whole day's as the service gives
 * them), prepared, 20 clients (pgbench).
 */
function pagesAlone(name, accountId, size) {
  const script = path.join(ROOT, '.data', 'bench', 'page.sql');
  const dayStart = `('${MONTH_START.toISOString()}'::timestamptz + make_interval(days => :d))`;
  const dayEnd = `('${MONTH_START.toISOString()}'::timestamptz + make_interval(days => :d + 1))`;
  const date = (days) => `('${MONTH_START.toISOString().slice(0, 10)}'::date + (${days})::int)`;
  const values = {
    1: `'${accountId}'`,
    2: `'production'`,
    3: dayStart,
    4: dayStart,
    5: dayEnd,
    6: dayEnd,
    7: date(':d'),
    8: date(':d + 1'),
    9: `(:p * ${size})`,
    10: String(size),
  };
  const statement = payoutQueryLib()
    .periodPageStatement(false)
    .replace(/\$(\d+)/g, (_, n) => values[n]);
  fs.writeFileSync(script, ['\\set d random(0, 29)', '\\set p random(0, 32)', `${statement.replace(/\s+/g, ' ')};`].join('\n') + '\n');
  // The service's named statement runs on PostgreSQL's generic plan (its choice after five runs); pgbench's values are
  // expressions of its variables, for which PostgreSQL would plan every run again: the generic plan, as the service's.
  const run = spawnSync('pgbench', ['-n', '-M', 'prepared', '-c20', '-j2', ...pgbenchLength(SECONDS), '-f', script, benchDatabaseUrl('payout_query')], {
    encoding: 'utf8',
    env: { ...process.env, PGOPTIONS: '-c plan_cache_mode=force_generic_plan' },
  });
  if (run.status !== 0) throw new Error(`${name}: pgbench failed\n${run.stdout}${run.stderr}`);
  const tps = Number(run.stdout.match(/tps = ([\d.]+) \(without initial connection time\)/)?.[1] ?? NaN);
  const average = Number(run.stdout.match(/latency average = ([\d.]+) ms/)?.[1] ?? NaN);
  if (Number.isNaN(tps) || Number.isNaN(average)) throw new Error(`${name}: pgbench printed no rate\n${run.stdout}${run.stderr}`);
  return { name, rps: Math.round(tps), average };
}

const rssMb = (pid, field = 'VmRSS') => {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return Number(line.split(/\s+/)[1]) / 1024;
  } catch {
    return 0;
  }
};

/** Samples the RSS of the given processes (and of the PostgreSQL backend running a COPY) while `work` runs. */
async function withRss(pids, work) {
  const peak = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, { before: rssMb(pid), peak: rssMb(pid) }]));
  peak['postgresql backend (private)'] = { before: 0, peak: 0 };
  const monitor = new pg.Client({ connectionString: serverUrl });
  await monitor.connect();
  let done = false;
  const sampling = (async () => {
    while (!done) {
      for (const [name, pid] of Object.entries(pids)) peak[name].peak = Math.max(peak[name].peak, rssMb(pid));
      const { rows } = await monitor.query(`SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT id, transaction_id%' AND pid <> pg_backend_pid()`);
      for (const { pid } of rows) {
        const entry = peak['postgresql backend (private)'];
        entry.peak = Math.max(entry.peak, rssMb(pid, 'RssAnon'));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await work(), rss: peak };
  } finally {
    done = true;
    await sampling;
    await monitor.end();
  }
}

/** The CSV through the gateway, read as it streams (rows counted, never kept). */
async function csvThroughGateway(key, query) {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${p.gateway}/v2/withdrawals/period/csv?${query}`, { headers: { authorization: key } });
  if (response.status !== 200) throw new Error(`CSV: ${response.status} ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  return { rows: lines - 1, bytes, seconds: (performance.now() - started) / 1000 };
}

/** PostgreSQL alone: the very COPY statement the service runs, through psql to /dev/null. */
function copyAlone(copySql) {
  const started = performance.now();
  const out = fs.openSync('/dev/null', 'w');
  const run = spawnSync('psql', [benchDatabaseUrl('payout_query'), '-v', 'ON_ERROR_STOP=1', '-c', copySql], { stdio: ['ignore', out, 'pipe'] });
  fs.closeSync(out);
  if (run.status !== 0) throw new Error(`COPY: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

await up();
ensureTools(['wrk', 'pgbench', 'psql']);
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
await dropBenchDatabases();
const lines = [];
try {
  const system = await startSystem({ profile: 'bench', adminToken: ADMIN_TOKEN });
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const accountIds = [];
    for (let n = 0; n < ACCOUNTS; n++) {
      const account = await json(`http://127.0.0.1:${p.admin}/admin/accounts`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: `Bench ${n}` }),
      });
      accountIds.push(account.account_id);
    }
    const key = await json(`http://127.0.0.1:${p.admin}/admin/accounts/${accountIds[0]}/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ environment: 'production' }),
    });
    const seedSeconds = await seed(accountIds);
    console.log(`[bench] seeded ${PAYOUTS} payouts over ${ACCOUNTS} accounts in ${seedSeconds.toFixed(1)} s`);

    // A day of the measured account: ~3,300 payouts, 34 pages of 100; pages asked at random.
    const day = (d) =>
      `start=${encodeURIComponent(sqlTime(new Date(MONTH_START.getTime() + d * 86400_000)))}&end=${encodeURIComponent(sqlTime(new Date(MONTH_START.getTime() + (d + 1) * 86400_000 - 1000)))}`;
    const dayPages = Array.from({ length: 1000 }, (_, i) => `/v2/withdrawals/period?${day(i % 30)}&page=${1 + (i % 34)}&size=100`);
    const month = `start=${encodeURIComponent(sqlTime(MONTH_START))}&end=${encodeURIComponent(sqlTime(new Date(MONTH_START.getTime() + MONTH_SECONDS * 1000)))}`;
    const monthPages = Array.from({ length: 1000 }, (_, i) => `/v2/withdrawals/period?${month}&page=${1 + (i % 1000)}&size=100`);
    const phases = [
      wrkPhase('period page, a day (~3,300 payouts), size 100', key.api_key, dayPages),
      wrkPhase('period page, a month (100,000 payouts), size 100', key.api_key, monthPages),
      wrkPhase(
        'period page, a day, size 10 (the default)',
        key.api_key,
        dayPages.map((path) => path.replace('size=100', 'size=10')),
      ),
      wrkPhase(`customer lookup (100 payouts)`, key.api_key, [`/v2/withdrawals/customer?document_number=${CUSTOMER}`]),
    ];
    const alone = [
      pagesAlone('a day, size 100: the page statement, database alone (pgbench)', accountIds[0], 100),
      pagesAlone('a day, size 10: the same, database alone', accountIds[0], 10),
    ];

    const { result: viaGateway, rss } = await withRss(
      {
        'api-gateway': system.pidOf('api-gateway'),
        'payout-query-service': system.pidOf('payout-query-service'),
        'bench client (reads the stream)': process.pid,
      },
      () => csvThroughGateway(key.api_key, month),
    );
    const copySql = await onDatabase(benchDatabaseUrl('payout_query'), async (client) => {
      return periodCsvCopy(
        { accountId: accountIds[0], environment: 'production' },
        { start: MONTH_START, endBefore: new Date(MONTH_START.getTime() + MONTH_SECONDS * 1000 + 1000) },
        (v) => client.escapeLiteral(v),
      );
    });
    const copySeconds = copyAlone(copySql);
    const gatewayRate = viaGateway.rows / viaGateway.seconds;
    const copyRate = viaGateway.rows / copySeconds;

    lines.push(
      `Payout lookups over ${PAYOUTS.toLocaleString('en')} payouts of ${ACCOUNTS} accounts (wrk, 20 connections, ${SECONDS} s per phase, through the gateway)`,
      '',
      '| phase | req/s | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      ...phases.map((r) => `| ${r.name} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`),
      ...alone.map((r) => `| ${r.name} | ${r.rps} | (average ${r.average.toFixed(1)}) | |`),
      '',
      `CSV of ${viaGateway.rows.toLocaleString('en')} rows (${(viaGateway.bytes / 1e6).toFixed(1)} MB)`,
      '',
      '| path | seconds | rows/s | ratio |',
      '|---|---:|---:|---:|',
      `| through the gateway | ${viaGateway.seconds.toFixed(2)} | ${Math.round(gatewayRate)} | ${(gatewayRate / copyRate).toFixed(2)} |`,
      `| PostgreSQL alone (the same COPY, psql to /dev/null) | ${copySeconds.toFixed(2)} | ${Math.round(copyRate)} | 1.00 |`,
      '',
      '| process | RSS before MB | peak MB | extra MB |',
      '|---|---:|---:|---:|',
      ...Object.entries(rss).map(([name, r]) => `| ${name} | ${r.before.toFixed(0)} | ${r.peak.toFixed(0)} | ${(r.peak - r.before).toFixed(0)} |`),
    );
  } finally {
    await system.stop();
  }
} finally {
  await dropBenchDatabases();
}
console.log(`\n${lines.join('\n')}`);
fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'payouts.md'), `${lines.join('\n')}\n`);
