// npm run bench:charges: one day's cycle charges for N APPROVED production recurrences (default 100,000), created
// by the real recurrence-service scheduler (Charges.issueDueCharges) against the bank simulator, in the `bench`
// system (deploy/scripts/system.cjs). Target: under 60 s on a 2-core machine, with flat memory.
//
// How: the bench databases are dropped and the system started (its migrations recreate them); N recurrences are
// written straight into the databases as if they had been created and approved through the API (their events,
// built by the recurrence decider, the read-model rows built by its projection, the simulator's APROVADA
// recurrence), with the charge_schedule row's next_charge_at NULL, so the scheduler has nothing to do while they are
// written. No outbox rows: the seed is history, not news. Then "the day starts": one UPDATE sets next_charge_at to
// the start of today in Brasília (what the projection computed) and the clock runs from its commit until the
// charges table holds N rows.
//
// Prints: elapsed time and charges/s, RSS (min/max/last) of recurrence-service and bank-simulator sampled every
// second, CPU seconds per process group over the run, how long the outbox took to drain to Kafka, and checks
// (exactly N charges, N charge.created events, no (recurrence_id, cycle) twice, N recurring charges at the bank).
// The databases are left in place for inspection (the next run drops them); the system is always stopped.
//
// Options (environment):
//   CHARGES_BENCH_N (100000)           recurrences to seed, one charge each
//   CHARGES_BENCH_ACCOUNTS (10)        merchant accounts they are spread over
//   CHARGES_BENCH_TIMEOUT_S (900)      give up (and report the partial rate) after this long
//   CHARGES_BENCH_SKIP_BUILD or BENCH_SKIP_BUILD   use dist/ as it is
//   BENCH_SMOKE=1                      tiny: 200 recurrences over 2 accounts (what `npm test` runs)
//   CHARGE_SCHEDULER_CONCURRENCY, CHARGE_SCHEDULER_BATCH, CHARGE_SCHEDULER_INTERVAL_MS
//                                      passed through to recurrence-service (defaults 32, 250, 1000)
//   DATABASE_URL                       the PostgreSQL server (postgres://postgres@127.0.0.1:5432/postgres)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { benchDatabaseUrl, countOf, dropBenchDatabases, setting } from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { ROOT, startSystem } from '../../scripts/system.cjs';
import { cpuByGroup, machineCpu, rssKb } from '../proc.mjs';
import { chargeDayChecks, seed } from './seed.mjs';

const N = setting('CHARGES_BENCH_N', 100_000, 200);
const ACCOUNTS = setting('CHARGES_BENCH_ACCOUNTS', 10, 2);
const TIMEOUT_MS = Number(process.env.CHARGES_BENCH_TIMEOUT_S ?? 900) * 1000;
const RECURRENCE_DB = benchDatabaseUrl('recurrence');
const BANK_DB = benchDatabaseUrl('bank_simulator');
const LOG_DIR = path.join(ROOT, '.data', 'logs', 'bench');
const WATCHED = ['recurrence-service', 'bank-simulator'];
const APPS = ['bank-simulator', 'limits-service', 'recurrence-service', 'payments-service', 'solicitation-service', 'api-gateway'];

const log = (message) => console.log(`[bench:charges] ${message}`);
const seconds = (ms) => (ms / 1000).toFixed(1);
const mb = (kb) => `${Math.round(kb / 1024)} MB`;

if (!Number.isSafeInteger(N) || N < 1) throw new Error(`CHARGES_BENCH_N=${process.env.CHARGES_BENCH_N} is not a positive integer`);

function settings() {
  return {
    N,
    accounts: ACCOUNTS,
    CHARGE_SCHEDULER_CONCURRENCY: process.env.CHARGE_SCHEDULER_CONCURRENCY ?? '32 (default)',
    CHARGE_SCHEDULER_BATCH: process.env.CHARGE_SCHEDULER_BATCH ?? '250 (default)',
    CHARGE_SCHEDULER_INTERVAL_MS: process.env.CHARGE_SCHEDULER_INTERVAL_MS ?? '1000 (default)',
    'recurrences per scheduler run': '20000 (issueDueCharges default), 4 batches at once',
    cores: os.cpus().length,
    node: process.version,
  };
}

/** Lines of a log written after `offset` that say WARN or ERROR: the first few, and how many. */
function problemsIn(file, offset) {
  try {
    const text = fs.readFileSync(file, 'utf8').slice(offset);
    const lines = text.split('\n').filter((l) => /\b(WARN|ERROR)\b/.test(l));
    return { count: lines.length, first: lines.slice(0, 3) };
  } catch {
    return { count: 0, first: [] };
  }
}

const logSize = (name) => {
  try {
    return fs.statSync(path.join(LOG_DIR, `${name}.log`)).size;
  } catch {
    return 0;
  }
};

async function main() {
  log(`settings: ${JSON.stringify(settings())}`);
  await up();
  if (!process.env.CHARGES_BENCH_SKIP_BUILD && !process.env.BENCH_SKIP_BUILD) {
    log('building (swc apps libs -> dist)');
    execFileSync('npx', ['swc', 'apps', 'libs', '-d', 'dist', '--config-file', '.swcrc', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  }
  await dropBenchDatabases();
  log('starting the bench system');
  const system = await startSystem({ profile: 'bench', adminToken: 'bench-admin-token' });
  const stopSystem = async () => {
    log('stopping the bench system');
    await system.stop();
  };
  const onSignal = () => void stopSystem().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const recDb = new pg.Client({ connectionString: RECURRENCE_DB });
  const bankDb = new pg.Client({ connectionString: BANK_DB });
  try {
    await recDb.connect();
    await bankDb.connect();

    const seedStart = performance.now();
    log(`seeding ${N} approved recurrences over ${ACCOUNTS} accounts`);
    const { nextChargeAt, client, today, startDate } = await seed(recDb, bankDb, { n: N, accounts: ACCOUNTS, log });
    for (const table of ['events', 'recurrences', 'charge_schedule']) await recDb.query(`VACUUM ANALYZE ${table}`);
    for (const table of ['locations', 'recurrences']) await bankDb.query(`VACUUM ANALYZE ${table}`);
    log(`seeded in ${seconds(performance.now() - seedStart)} s (today ${today}, start_date ${startDate}, next_charge_at ${nextChargeAt.toISOString()})`);

    // The scheduler must be able to reach the bank's webhook: wait for recurrence-service to have registered it.
    for (let waited = 0; (await countOf(bankDb, 'SELECT count(*) FROM recurring_charge_webhooks WHERE client = $1', [client])) === 0; waited += 250) {
      if (waited > 30_000) throw new Error('recurrence-service registered no cobr webhook at the bank in 30 s');
      await sleep(250);
    }
    if ((await countOf(recDb, 'SELECT count(*) FROM charges')) !== 0) throw new Error('charges exist before the day started');
    if ((await countOf(recDb, 'SELECT count(*) FROM outbox')) !== 0) throw new Error('the seed left outbox rows');

    const pids = new Map(APPS.map((name) => [name, system.pidOf(name)]));
    const rss = Object.fromEntries(WATCHED.map((name) => [name, { min: Infinity, max: 0, last: NaN, first: rssKb(pids.get(name)) }]));
    const sampleRss = () => {
      for (const name of WATCHED) {
        const kb = rssKb(pids.get(name));
        if (Number.isNaN(kb)) continue;
        Object.assign(rss[name], { min: Math.min(rss[name].min, kb), max: Math.max(rss[name].max, kb), last: kb });
      }
    };
    const logOffsets = Object.fromEntries(WATCHED.map((name) => [name, logSize(name)]));

    // ---- the day starts ----
    // Timed from the UPDATE's commit, when the recurrences become due: the scheduler can see none of them before.
    // (In a running system next_charge_at is already set and the day comes by the clock, with no such UPDATE.)
    const updateStart = performance.now();
    const { rowCount } = await recDb.query(`UPDATE charge_schedule SET next_charge_at = $1 WHERE environment = 'production' AND next_charge_at IS NULL`, [
      nextChargeAt,
    ]);
    const cpuBefore = cpuByGroup(pids);
    const machineBefore = machineCpu();
    const t0 = performance.now();
    const updateMs = t0 - updateStart;
    if (rowCount !== N) throw new Error(`the day started for ${rowCount} recurrences, not ${N}`);
    log(`the day started: next_charge_at set for ${rowCount} recurrences in ${Math.round(updateMs)} ms; counting charges`);

    let charges = 0;
    let lastRss = 0;
    let lastReport = t0;
    let done;
    for (;;) {
      const now = performance.now();
      charges = await countOf(recDb, 'SELECT count(*) FROM charges');
      if (now - lastRss >= 1000) {
        sampleRss();
        lastRss = now;
      }
      if (charges >= N) {
        done = performance.now();
        break;
      }
      if (now - lastReport >= 5000) {
        lastReport = now;
        const elapsed = now - t0;
        log(
          `  ${seconds(elapsed)} s: ${charges} charges (${Math.round(charges / (elapsed / 1000))}/s); RSS ${WATCHED.map((n) => `${n} ${mb(rss[n].last)}`).join(', ')}`,
        );
      }
      if (now - t0 > TIMEOUT_MS) break;
      // count(*) scans the table: polled once a second while far from done (it competes with what is measured), then
      // every 100 ms over the last seconds, so the end is still seen within 0.1 s.
      const rate = charges / Math.max(1, (now - t0) / 1000);
      const secondsLeft = rate > 0 ? (N - charges) / rate : Infinity;
      await sleep(secondsLeft > 3 ? 1000 : 100);
    }
    sampleRss();
    const cpuAfter = cpuByGroup(pids);
    const machineAfter = machineCpu();
    const end = done ?? performance.now();
    const elapsedMs = end - t0;

    // The outbox: how long until every charge.created left for Kafka.
    let outboxDrainedAt;
    for (;;) {
      const left = await countOf(recDb, 'SELECT count(*) FROM outbox');
      if (left === 0) {
        outboxDrainedAt = performance.now();
        break;
      }
      if (performance.now() - end > 300_000) {
        log(`  outbox: still ${left} rows 5 min after the last charge; giving up waiting`);
        break;
      }
      await sleep(250);
    }

    // ---- checks ----
    await sleep(1500); // the last recurrences' scheduler note (postponeNextCharge) follows their charge
    const { checks, expected, failed } = await chargeDayChecks(recDb, bankDb, client, N);
    const problems = Object.fromEntries(WATCHED.map((name) => [name, problemsIn(path.join(LOG_DIR, `${name}.log`), logOffsets[name])]));

    // ---- report ----
    const cpuSeconds = Object.entries(cpuAfter)
      .map(([group, after]) => [group, after - (cpuBefore[group] ?? 0)])
      .filter(([, s]) => s >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const lines = [
      `One day's charge creation: ${N} APPROVED production recurrences, ${ACCOUNTS} accounts, ${os.cpus().length} cores`,
      `settings: CHARGE_SCHEDULER_CONCURRENCY=${settings().CHARGE_SCHEDULER_CONCURRENCY}, CHARGE_SCHEDULER_BATCH=${settings().CHARGE_SCHEDULER_BATCH}, CHARGE_SCHEDULER_INTERVAL_MS=${settings().CHARGE_SCHEDULER_INTERVAL_MS}, up to 20000 recurrences per run, 4 batches at once`,
      '',
      '| figure | value |',
      '|---|---:|',
      `| ${done ? 'elapsed until N charges' : `TIMED OUT after (charges: ${charges} of ${N})`} | ${seconds(elapsedMs)} s |`,
      `| charges/s | ${Math.round(charges / (elapsedMs / 1000))} |`,
      `| outbox drained to Kafka, from the day's start | ${outboxDrainedAt ? `${seconds(outboxDrainedAt - t0)} s` : 'not drained'} |`,
      `| outbox drained, after the last charge | ${outboxDrainedAt ? `${seconds(outboxDrainedAt - end)} s` : 'not drained'} |`,
      ...WATCHED.map(
        (name) => `| ${name} RSS before / min / max / last | ${mb(rss[name].first)} / ${mb(rss[name].min)} / ${mb(rss[name].max)} / ${mb(rss[name].last)} |`,
      ),
      `| machine CPU busy during the run | ${Math.round(machineBusy * 100)}% of ${os.cpus().length} cores |`,
      '',
      'CPU seconds during the run, by process:',
      '',
      '| process | CPU s | share of one core |',
      '|---|---:|---:|',
      ...cpuSeconds.map(([group, s]) => `| ${group} | ${s.toFixed(1)} | ${Math.round((s / (elapsedMs / 1000)) * 100)}% |`),
      '',
      `checks: ${Object.entries(checks)
        .map(([k, v]) => `${k} ${v}${v === expected[k] ? '' : ` (expected ${expected[k]})`}`)
        .join('; ')}`,
      ...WATCHED.filter((name) => problems[name].count > 0).map(
        (name) => `${name}: ${problems[name].count} WARN/ERROR log lines, e.g.\n  ${problems[name].first.join('\n  ')}`,
      ),
    ];
    console.log(`\n${lines.join('\n')}`);
    fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'charges.md'), `${lines.join('\n')}\n`);
    if (!done || failed.length > 0) {
      process.exitCode = 1;
      if (failed.length > 0) log(`FAILED checks: ${failed.join(', ')}`);
    }
  } finally {
    await recDb.end().catch(() => undefined);
    await bankDb.end().catch(() => undefined);
    await stopSystem();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

await main();
