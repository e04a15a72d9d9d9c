// npm test: the whole proof on a fresh machine. Infrastructure up (started only where missing), lint and type
// checks, build, unit and integration tests of every project, the end-to-end suite (crash test included)
// against the built apps, then everything it started is stopped and its test data removed.
// Closes with one line "N passed, N failed" summed over every Jest run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { down, up } from './infra.mjs';
import { PROFILES, ROOT } from './system.cjs';

const RESULTS = path.join(ROOT, '.data', 'test-results');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function step(title, args) {
  console.log(`\n=== ${title}`);
  const run = spawnSync('npx', ['nx', ...args, '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env });
  return run.status === 0;
}

/** The e2e profile's databases and Redis database: emptied before the run and removed after it. */
async function removeE2eData() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${PROFILES.e2e.databasePrefix}\\_%`]);
  for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
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
    passed += result.numPassedTests;
    failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
  }
  return { passed, failed };
}

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
    step('lint and type-check', ['run-many', '-t', 'lint']) &&
    step('build', ['run-many', '-t', 'build']) &&
    step('unit and integration tests', ['run-many', '-t', 'test', '--parallel=1']) &&
    step('end-to-end tests', ['run', 'api-e2e:e2e']);
} finally {
  await removeE2eData().catch((error) => console.error(`cleanup: ${error.message}`));
  // The fault suite's own servers (stopped by the suite) leave their data here.
  fs.rmSync(path.join(ROOT, '.data', 'faults'), { recursive: true, force: true });
  await down({ only: started });
}
const { passed, failed } = tally();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
