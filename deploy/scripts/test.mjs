// npm test: the whole proof on a fresh machine. Infrastructure up (started only where missing), lint and type
// checks, build, unit and integration tests of every project, the end-to-end suite (crash test included, the
// commands README.md and docs/ show, and every bench in its tiny mode) against the built apps, the merchant console in
// a browser (Debian's chromium), then everything it started is stopped and its test data removed.
// The merchant's journeys run a second time on a system of two processes of every app but the bank simulator
// (`npm start -- --replicas 2`).
// Closes with one line "N passed, N failed" summed over every Jest and Playwright run.
//
// Every step has a time bound, and so has the whole run (CI gives it 90 minutes): a step past its bound is stopped
// with everything it started (its process group), after the processes still running are named, and the run fails.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { down, up } from './infra.mjs';
import { PROFILES, ROOT } from './system.cjs';

const RESULTS = path.join(ROOT, '.data', 'test-results');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

/** The whole run's bound, well inside CI's 90 minutes: what is left of it bounds each step too. */
const RUN_BOUND_MS = Number(process.env.TEST_RUN_BOUND_MS ?? 75 * 60_000);
const runDeadline = performance.now() + RUN_BOUND_MS;
const minutes = (ms) => `${Math.round(ms / 60_000)} min`;

/** The processes of a group, one line each (what a stuck step still had running). */
function processesOf(group) {
  const lines = spawnSync('ps', ['-e', '-o', 'pgid=,pid=,etime=,args='], { encoding: 'utf8' }).stdout?.split('\n') ?? [];
  return lines
    .filter((line) => line.trim().split(/\s+/)[0] === String(group))
    .map((line) => `  ${line.trim().split(/\s+/).slice(1).join(' ').slice(0, 240)}`)
    .join('\n');
}

let running; // the step's child: a signal to this script reaches its whole group too, and no later step starts
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    if (running) process.kill(-running.pid, signal);
  });
}

/** Runs `npx nx ...args` in a process group of its own; resolves to whether it passed within `boundMs`. */
async function step(title, args, boundMs) {
  const bound = Math.min(boundMs, runDeadline - performance.now());
  console.log(`\n=== ${title} (at most ${minutes(bound)})`);
  if (bound <= 0 || interrupted) return false;
  const child = spawn('npx', ['nx', ...args, '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env, detached: true });
  running = child;
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const timer = setTimeout(() => {
    console.error(`\n=== ${title}: still running after ${minutes(bound)}; these processes are stopped:\n${processesOf(child.pid)}`);
    process.kill(-child.pid, 'SIGTERM');
    setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 15_000).unref();
  }, bound);
  const code = await exited;
  clearTimeout(timer);
  running = undefined;
  // Whatever the step left behind in its group (an app a test did not stop) goes with it.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // nothing left
  }
  return code === 0;
}

/**
 * The e2e profile's databases and Redis database: emptied before the run and removed after it; so are the bench
 * profile's databases, which the benches' tiny runs of the end-to-end suite use (bench:charges leaves its own).
 */
async function removeE2eData() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  for (const prefix of [PROFILES.e2e.databasePrefix, PROFILES.bench.databasePrefix]) {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}\\_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  }
  await client.end();
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${PROFILES.e2e.redisDb}`;
  const redis = new Redis(url.toString());
  await redis.flushdb();
  redis.disconnect();
}

function tally() {
  let passed = 0;
  let failed = 0;
  for (const file of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) {
    const result = JSON.parse(fs.readFileSync(path.join(RESULTS, file), 'utf8'));
    if (result.stats) {
      // Playwright's report (the console's browser tests): expected passed, unexpected failed, errors outside tests.
      passed += result.stats.expected;
      failed += result.stats.unexpected + result.stats.flaky + (result.errors?.length ?? 0);
      continue;
    }
    passed += result.numPassedTests;
    failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
  }
  return { passed, failed };
}

console.log(`npm test on Node ${process.version} (every process it starts runs on this one: package.json pins it)`);
fs.rmSync(RESULTS, { recursive: true, force: true });
fs.mkdirSync(RESULTS, { recursive: true });
let ok = false;
// Only what this run starts is stopped at the end: a server that was already up, ours or not, stays up.
const started = Object.entries(await up())
  .filter(([, server]) => server.startedNow)
  .map(([name]) => name);
try {
  await removeE2eData();
  ok =
    (await step('lint and type-check', ['run-many', '-t', 'lint'], 15 * 60_000)) &&
    (await step('build', ['run-many', '-t', 'build'], 10 * 60_000)) &&
    (await step('unit and integration tests', ['run-many', '-t', 'test', '--parallel=1'], 20 * 60_000)) &&
    (await step('end-to-end tests', ['run', 'api-e2e:e2e'], 40 * 60_000)) &&
    (await step('the merchant console in a browser', ['run', 'console-e2e:e2e'], 15 * 60_000)) &&
    (await step('the journeys again, on two processes of every app', ['run', 'api-e2e:e2e-replicas'], 15 * 60_000));
} finally {
  await removeE2eData().catch((error) => console.error(`cleanup: ${error.message}`));
  // The fault suite's own servers (stopped by the suite) leave their data here.
  fs.rmSync(path.join(ROOT, '.data', 'faults'), { recursive: true, force: true });
  await down({ only: started });
}
const { passed, failed } = tally();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
