// npm run bench:reports: GET /v2/reports/daily-totals (docs/api/reports.md) over an account with a busy month.
// Ten accounts' rows are written straight into the four services' read models (the tables and columns their projections
// write), each account's about 100 a day of each kind over 180 days of history (of each 30 days: 3,000 Pix charges paid
// and 333 expired, 1,000 refunds, 3,000 payouts, 3,000 Automatic Pix charges paid and 158 failed, 3,000 webhook
// deliveries); then each statement's plan (EXPLAIN ANALYZE: which index, how long), and the route through the gateway
// with autocannon: one connection (the console's one request), then 20.
// Options: BENCH_SECONDS (10), BENCH_PER_DAY (100), BENCH_HISTORY_DAYS (180), BENCH_PROFILE (bench: its databases
// dropped at the end; another profile keeps them), BENCH_SKIP_BUILD, BENCH_SMOKE=1 (tiny: 1 s a phase, 5 a day, 30 days).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { dropBenchDatabases, json, onDatabase, serverUrl, setting } from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { ROOT, profileOf, startSystem } from '../../scripts/system.cjs';

const SECONDS = setting('BENCH_SECONDS', 10, 1);
const PER_DAY = setting('BENCH_PER_DAY', 100, 5);
const DAYS = 30;
const HISTORY = setting('BENCH_HISTORY_DAYS', 180, 30);
const ACCOUNTS = 10;
const ADMIN_TOKEN = 'bench-admin-token';
const PROFILE = process.env.BENCH_PROFILE ?? 'bench';
const p = profileOf(PROFILE);
const databaseUrl = (service) => Object.assign(new URL(serverUrl), { pathname: `/${p.databasePrefix}_${service}` }).toString();
const lib = (name) => createRequire(import.meta.url)(`../../../dist/libs/${name}/src/index.js`);

/** Rows for each account, row i on the day i % HISTORY before today, at an hour and minute of its own. */
const ROWS = `generate_series(1, $2::int) AS i JOIN unnest($1::text[]) WITH ORDINALITY AS a(account_id, k) ON true`;
const AT = `now() - make_interval(days => (i % ${HISTORY}), hours => (i * 7) % 24, mins => i % 60)`;

async function seed(accountIds) {
  const started = performance.now();
  const n = PER_DAY * HISTORY;
  const base = 1_000_000_000_000;
  await onDatabase(databaseUrl('payments'), async (db) => {
    await db.query(
      `INSERT INTO pix_charges (account_id, environment, id, transaction_id, amount_centavos, status, provider, created_at, paid_at, version)
       SELECT a.account_id, 'production', ${base} + a.k * 1000000 + i, 'bench-' || a.k || '-' || i, 100 + (i * 37) % 100000,
              CASE WHEN i % 10 = 0 THEN 'EXPIRED' ELSE 'PAID' END, 'PROVIDER_A', ${AT} - interval '1 minute',
              CASE WHEN i % 10 = 0 THEN NULL ELSE ${AT} END, 2
         FROM ${ROWS}`,
      [accountIds, Math.round((n * 10) / 9)],
    );
    await db.query(
      `INSERT INTO pix_refunds (id, account_id, environment, charge_id, transaction_id, e2e_id, bank_id, amount_centavos, status, created_at, version)
       SELECT ${base} + a.k * 1000000 + i, a.account_id, 'production', ${base} + a.k * 1000000 + i, 'bench-' || a.k || '-' || i,
              'E' || a.k || '-' || i, 'D' || a.k || '-' || i, 50 + i % 1000, CASE WHEN i % 20 = 0 THEN 'FAILED' ELSE 'REFUNDED' END, ${AT}, 2
         FROM ${ROWS}`,
      [accountIds, Math.round(n / 3)],
    );
    await db.query('ANALYZE pix_charges; ANALYZE pix_refunds');
  });
  await onDatabase(databaseUrl('payout_query'), async (db) => {
    await db.query(
      `INSERT INTO payout_lookups (account_id, environment, id, transaction_id, name, document_number, document_type, amount_centavos, status, provider, created_at, version)
       SELECT a.account_id, 'production', ${base} + a.k * 1000000 + i, 'bench-' || a.k || '-' || i, 'MARIA SILVA', '52998224725', 'CPF',
              1000 + i % 50000, (ARRAY[1, 1, 1, 1, 0, 2, 3, 4])[1 + i % 8], 'PROVIDER_A', ${AT}, 3
         FROM ${ROWS}`,
      [accountIds, n],
    );
    await db.query('ANALYZE payout_lookups');
  });
  await onDatabase(databaseUrl('recurrence'), async (db) => {
    await db.query(
      `INSERT INTO charges (account_id, environment, charge_id, recurrence_id, type, cycle, due_date, amount_centavos, status, retries, attempt_date,
                            attempt_at, txid, created_at, paid_at, version)
       SELECT a.account_id, 'production', 'bench-' || a.k || '-' || i, 'rec-' || a.k || '-' || i, 'cycle', 1, (${AT})::date, 4990 + i % 100,
              CASE WHEN i % 20 = 0 THEN 'FAILED' ELSE 'PAID' END, 0, (${AT})::date, ${AT}, 'txid' || a.k || '-' || i, ${AT} - interval '3 days',
              CASE WHEN i % 20 = 0 THEN NULL ELSE ${AT} END, 3
         FROM ${ROWS}`,
      [accountIds, Math.round((n * 20) / 19)],
    );
    await db.query('ANALYZE charges');
  });
  await onDatabase(databaseUrl('webhook_dispatcher'), async (db) => {
    await db.query(
      `INSERT INTO webhook_deliveries (id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload, status, created_at)
       SELECT 'bench-' || a.k || '-' || i, a.account_id, 'production', 'pix_charge.paid', 'pix_charge', i::text, 'g' || i, 1,
              'https://shop.example.com/pix', '{}', CASE WHEN i % 30 = 0 THEN 'failed' ELSE 'delivered' END, ${AT}
         FROM ${ROWS}`,
      [accountIds, n],
    );
    await db.query('ANALYZE webhook_deliveries');
  });
  return (performance.now() - started) / 1000;
}

/** Each statement's plan on the measured account's 30 days: the index it reads and its execution time. */
async function plans(accountId) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  const days = { start_day: new Date(Date.parse(`${today}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10), end_day: today };
  const { from, to } = lib('contracts').reportPeriod(days);
  const statements = [
    ['payments', 'Pix charges paid', lib('payments').PAYMENTS_DAILY_TOTALS_SQL.pixChargesPaid, [accountId, 'production', from, to]],
    ['payments', 'refunds', lib('payments').PAYMENTS_DAILY_TOTALS_SQL.refundsMade, [accountId, 'production', from, to]],
    ['payout_query', 'payouts', lib('payout-query').PAYOUTS_DAILY_TOTALS_SQL, [accountId, 'production', from, to]],
    ['recurrence', 'Automatic Pix charges paid', lib('recurrences').CHARGES_DAILY_TOTALS_SQL.paid, [accountId, 'production', from, to]],
    ['recurrence', 'failed charges', lib('recurrences').CHARGES_DAILY_TOTALS_SQL.failed, [accountId, 'production', days.start_day, days.end_day]],
    ['webhook_dispatcher', 'failed deliveries', lib('webhooks').FAILED_IN_PERIOD, [accountId, 'production', from, to]],
  ];
  const rows = [];
  for (const [database, name, sql, values] of statements) {
    const plan = await onDatabase(
      databaseUrl(database),
      async (db) => (await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values)).rows[0]['QUERY PLAN'][0],
    );
    const indexes = new Set();
    const walk = (node) => {
      if (node['Index Name']) indexes.add(`${node['Node Type']} ${node['Index Name']}`);
      (node.Plans ?? []).forEach(walk);
    };
    walk(plan.Plan);
    rows.push(`| ${name} | ${[...indexes].join(', ') || plan.Plan['Node Type']} | ${plan['Execution Time'].toFixed(2)} |`);
  }
  return rows;
}

/** autocannon on the route for SECONDS: requests a second, latency percentiles, and what did not answer 200 by status. */
async function phase(name, port, key, connections) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}/v2/reports/daily-totals`, headers: { authorization: key }, connections, duration: SECONDS });
  const refused = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => status !== '200')
    .map(([status, { count }]) => `${count} × ${status}`);
  if (result.errors + result.timeouts > 0) refused.push(`${result.errors + result.timeouts} errors or timeouts`);
  return `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${refused.join(', ') || 'none'} |`;
}

if (!process.env.BENCH_SKIP_BUILD)
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
  });
await up();
if (PROFILE === 'bench') await dropBenchDatabases();
const lines = [];
try {
  const system = await startSystem({ profile: PROFILE, adminToken: ADMIN_TOKEN });
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const accountIds = [];
    for (let k = 0; k < ACCOUNTS; k++) {
      accountIds.push(
        (await json(`http://127.0.0.1:${p.admin}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: `Bench ${k}` }) })).account_id,
      );
    }
    const keyOf = async (environment) =>
      (
        await json(`http://127.0.0.1:${p.admin}/admin/accounts/${accountIds[0]}/api-keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ environment }),
        })
      ).api_key;
    const [production, sandbox] = [await keyOf('production'), await keyOf('sandbox')];
    const seconds = await seed(accountIds);
    console.log(`[bench] seeded ${ACCOUNTS} accounts of ${PER_DAY * HISTORY} rows of each kind (${HISTORY} days) in ${seconds.toFixed(1)} s`);
    const answer = await json(`http://127.0.0.1:${p.gateway}/v2/reports/daily-totals`, { headers: { authorization: production } });
    const planRows = await plans(accountIds[0]);
    const phases = [
      await phase('production, 1 connection', p.gateway, production, 1),
      await phase('production, 20 connections', p.gateway, production, 20),
      await phase('sandbox (an empty month, the test clock read), 20 connections', p.sandbox, sandbox, 20),
    ];
    lines.push(
      `GET /v2/reports/daily-totals, the measured account's 30 days: ${answer.totals.pix_charges_paid.count} Pix charges paid, ${answer.totals.refunds.count} refunds, ` +
        `${answer.totals.payouts.count} payouts, ${answer.totals.automatic_pix_charges_paid.count} Automatic Pix charges paid, of ${HISTORY} days of history (${ACCOUNTS} accounts alike in each table)`,
      '',
      '| statement | plan | ms |',
      '|---|---|---:|',
      ...planRows,
      '',
      `| phase (autocannon, ${SECONDS} s) | req/s | p50 ms | p99 ms | not 200 |`,
      '|---|---:|---:|---:|---|',
      ...phases,
    );
  } finally {
    await system.stop();
  }
} finally {
  if (PROFILE === 'bench') await dropBenchDatabases();
}
console.log(`\n${lines.join('\n')}`);
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'reports.md'), `${lines.join('\n')}\n`);
