// The system's processes: which apps run, on which ports, with which settings; start, kill -9, restart, stop.
// Used by `npm start`, the end-to-end suite, the crash test and the benchmark, so all of them run the same thing.
//
// CommonJS so that both the .mjs scripts and the Jest suites (CommonJS) load it: `await startSystem({ profile })`
// with a profile of PROFILES below ('dev', 'e2e', ...) answers the running system.

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

/**
 * How every app runs. A young generation of up to 64 MB per semi-space (V8's default is 16): the busy services
 * allocate fast, and fewer scavenges took ~8% off recurrence-service's CPU in the charge benchmark, for ~100 MB
 * more resident memory under load.
 */
const NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=64'];

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Ports and settings per profile: `dev` is what docs/architecture.md documents; `e2e` and `bench` stay out of its way.
 */
const PROFILES = {
  dev: {
    gateway: 3000,
    sandbox: 3001,
    admin: 3002,
    console: 3003,
    recurrences: 4001,
    solicitations: 4002,
    payments: 4007,
    paymentsCallbacks: 4107,
    payoutQuery: 4008,
    payoutQueryHttp: 4108,
    webhooks: 4009,
    receipts: 4011,
    bankCallbacks: 4101,
    limits: 4005,
    bank: 4010,
    gatewayOps: 3050,
    consoleOps: 3054,
    recurrencesOps: 4051,
    solicitationsOps: 4052,
    limitsOps: 4055,
    paymentsOps: 4057,
    payoutQueryOps: 4058,
    webhooksOps: 4059,
    receiptsOps: 4061,
    databasePrefix: 'pixauto',
    redisDb: 0,
  },
  e2e: {
    gateway: 13000,
    sandbox: 13001,
    admin: 13002,
    console: 13003,
    recurrences: 14001,
    solicitations: 14002,
    payments: 14007,
    paymentsCallbacks: 14107,
    payoutQuery: 14008,
    payoutQueryHttp: 14108,
    webhooks: 14009,
    receipts: 14011,
    bankCallbacks: 14101,
    limits: 14005,
    bank: 14010,
    gatewayOps: 13050,
    consoleOps: 13054,
    recurrencesOps: 14051,
    solicitationsOps: 14052,
    limitsOps: 14055,
    paymentsOps: 14057,
    payoutQueryOps: 14058,
    webhooksOps: 14059,
    receiptsOps: 14061,
    databasePrefix: 'pixauto_e2e',
    redisDb: 15,
  },
  // The fault suite (apps/api-e2e/src/faults.e2e.spec.ts): on its own PostgreSQL, Redis and Kafka, which it restarts.
  // Below 32768, as every profile: a port in Linux's ephemeral range may be taken by any outgoing connection.
  faults: {
    gateway: 25000,
    sandbox: 25001,
    admin: 25002,
    console: 25003,
    recurrences: 26001,
    solicitations: 26002,
    payments: 26007,
    paymentsCallbacks: 26107,
    payoutQuery: 26008,
    payoutQueryHttp: 26108,
    webhooks: 26009,
    receipts: 26011,
    bankCallbacks: 26101,
    limits: 26005,
    bank: 26010,
    gatewayOps: 25050,
    consoleOps: 25054,
    recurrencesOps: 26051,
    solicitationsOps: 26052,
    limitsOps: 26055,
    paymentsOps: 26057,
    payoutQueryOps: 26058,
    webhooksOps: 26059,
    receiptsOps: 26061,
    databasePrefix: 'pixauto_faults',
    redisDb: 0,
  },
  bench: {
    gateway: 23000,
    sandbox: 23001,
    admin: 23002,
    console: 23003,
    recurrences: 24001,
    solicitations: 24002,
    payments: 24007,
    paymentsCallbacks: 24107,
    payoutQuery: 24008,
    payoutQueryHttp: 24108,
    webhooks: 24009,
    receipts: 24011,
    bankCallbacks: 24101,
    limits: 24005,
    bank: 24010,
    gatewayOps: 23050,
    consoleOps: 23054,
    recurrencesOps: 24051,
    solicitationsOps: 24052,
    limitsOps: 24055,
    paymentsOps: 24057,
    payoutQueryOps: 24058,
    webhooksOps: 24059,
    receiptsOps: 24061,
    databasePrefix: 'pixauto_bench',
    redisDb: 14,
  },
};

/**
 * `e2e1` to `e2e4`: the e2e profile moved 200 ports up per number, with databases and a Redis database of their own,
 * so that several end-to-end runs (developers working side by side) never share a port or a row.
 */
function profileOf(name) {
  if (PROFILES[name]) return PROFILES[name];
  const match = /^e2e([1-4])$/.exec(name);
  if (!match) throw new Error(`unknown profile ${name}`);
  const n = Number(match[1]);
  const moved = Object.fromEntries(
    Object.entries(PROFILES.e2e).map(([key, value]) => [key, typeof value === 'number' && key !== 'redisDb' ? value + 200 * n : value]),
  );
  return { ...moved, databasePrefix: `pixauto_e2e${n}`, redisDb: 14 - n };
}

function redisUrl(db) {
  const base = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  base.pathname = `/${db}`;
  return base.toString();
}

/** Every app of the system with its own settings; shared ones (DATABASE_URL, KAFKA_BROKERS) come from the environment. */
/**
 * The key that seals banking credentials and webhook secrets (docs/operations.md "Secrets"): SECRETS_KEYS when set, for
 * the dev profile the one npm start keeps in .data/secrets-keys; the test and bench profiles' data is made up, so
 * theirs is derived from the profile's name (stable, so a database left by an earlier run still opens).
 */
const testKey = (profileName, purpose) => crypto.createHash('sha256').update(`pixauto test ${purpose} ${profileName}`).digest('base64');
const secretsKeysOf = (profileName) => process.env.SECRETS_KEYS ?? `${profileName}:${testKey(profileName, 'secrets key')}`;
/** The key that HMACs documents into limit stream ids (docs/operations.md "Secrets"), found the same way. */
const documentKeyOf = (profileName) => process.env.DOCUMENT_KEY ?? testKey(profileName, 'document key');

/**
 * What webhooks may reach (docs/operations.md "Environment variables"), the same in every profile: merchants' receivers
 * in development and tests listen on loopback over http, so the sandbox's webhooks may reach loopback; never our own
 * listeners' ports (those of every profile, which share this machine, and the servers'), never another address of the
 * private network or link-local (cloud metadata). Private networks stay closed unless WEBHOOK_ALLOW_PRIVATE_NETWORKS in
 * the environment opens some.
 */
const WEBHOOK_LOOPBACK = 'sandbox';

/** Every port a profile of this file listens on, and those of the servers the apps use: no webhook goes there. */
function reservedPorts() {
  const names = [...Object.keys(PROFILES), 'e2e1', 'e2e2', 'e2e3', 'e2e4'];
  const ports = new Set(
    names.flatMap((name) =>
      Object.entries(profileOf(name))
        .filter(([key, value]) => typeof value === 'number' && key !== 'redisDb')
        .flatMap(([, value]) => Array.from({ length: MAX_REPLICAS }, (_, k) => value + k * REPLICA_PORT_STEP)),
    ),
  );
  // The gateway's processes beyond the first have their ops listeners on the next ports.
  for (const name of names) for (let i = 1; i < MAX_REPLICAS; i++) ports.add(profileOf(name).gatewayOps + i);
  const serverPort = (url, otherwise) => Number(new URL(url).port || otherwise);
  ports.add(serverPort(process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432', 5432));
  ports.add(serverPort(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 6379));
  for (const broker of (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')) ports.add(serverPort(`kafka://${broker}`, 9092));
  return [...ports].sort((a, b) => a - b).join(',');
}

/**
 * `npm start -- --replicas N`: N processes of every app but the bank simulator. A service's replica k (from 0) listens
 * on its ports + 20k; the gateway's N processes share its ports (GATEWAY_PROCESSES). Each takes 1/N of its app's
 * database connections, so the whole stays within PostgreSQL's 100.
 */
const MAX_REPLICAS = 4;
const REPLICA_PORT_STEP = 20;
/** The settings that name a port a replica listens on: moved for each replica. */
const LISTENING_PORTS = ['PORT', 'OPS_PORT', 'BANK_CALLBACK_PORT', 'PAYMENTS_BANK_CALLBACK_PORT', 'PAYOUT_QUERY_HTTP_PORT'];

/** `host:port` of each replica of a service whose first listens on `port`. */
const replicaAddresses = (port, replicas) => Array.from({ length: replicas }, (_, k) => `127.0.0.1:${port + k * REPLICA_PORT_STEP}`).join(',');

/** The apps of one replica each, made N: services repeated on moved ports, the gateway as N processes. */
function withReplicas(apps, replicas) {
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS) throw new Error(`replicas must be 1 to ${MAX_REPLICAS} (got ${replicas})`);
  if (replicas === 1) return apps;
  return apps.flatMap((app) => {
    if (app.name === 'bank-simulator') return [app];
    const shared = { ...app.env, DATABASE_POOL_REPLICAS: String(replicas) };
    if (app.name === 'api-gateway') {
      const opsPort = Number(app.env.OPS_PORT);
      const ready = Array.from({ length: replicas }, (_, i) => `http://127.0.0.1:${opsPort + i}/health/ready`);
      return [{ ...app, ready, env: { ...shared, GATEWAY_PROCESSES: String(replicas) } }];
    }
    return Array.from({ length: replicas }, (_, k) => {
      const moved = Object.fromEntries(LISTENING_PORTS.filter((key) => app.env[key]).map((key) => [key, String(Number(app.env[key]) + k * REPLICA_PORT_STEP)]));
      return {
        ...app,
        name: k === 0 ? app.name : `${app.name}-${k + 1}`,
        program: app.name,
        ready: `http://127.0.0.1:${moved.OPS_PORT}/health/ready`,
        env: { ...shared, ...moved },
      };
    });
  });
}

function appsOf(profileName, adminToken, secretsKeys = secretsKeysOf(profileName), documentKey = documentKeyOf(profileName), replicas = 1) {
  const p = profileOf(profileName);
  const to = (port) => replicaAddresses(port, replicas);
  const common = { DATABASE_PREFIX: p.databasePrefix, REDIS_URL: redisUrl(p.redisDb), SECRETS_KEYS: secretsKeys, DOCUMENT_KEY: documentKey };
  const bank = `http://127.0.0.1:${p.bank}`;
  const ready = (port) => `http://127.0.0.1:${port}/health/ready`;
  return withReplicas(
    [
      // The bank behind us, and the payer, for local runs, tests and the sandbox (apps/bank-simulator).
      { name: 'bank-simulator', ready: `${bank}/health`, env: { ...common, PORT: String(p.bank) } },
      { name: 'limits-service', ready: ready(p.limitsOps), env: { ...common, PORT: String(p.limits), OPS_PORT: String(p.limitsOps) } },
      {
        name: 'recurrence-service',
        ready: ready(p.recurrencesOps),
        env: {
          ...common,
          PORT: String(p.recurrences),
          OPS_PORT: String(p.recurrencesOps),
          BANK_CALLBACK_PORT: String(p.bankCallbacks),
          BANK_PRODUCTION_URL: bank,
          BANK_SANDBOX_URL: bank,
        },
      },
      {
        name: 'payments-service',
        ready: ready(p.paymentsOps),
        env: {
          ...common,
          PORT: String(p.payments),
          OPS_PORT: String(p.paymentsOps),
          PAYMENTS_BANK_CALLBACK_PORT: String(p.paymentsCallbacks),
          BANK_PRODUCTION_URL: bank,
          BANK_SANDBOX_URL: bank,
          LIMITS_SERVICE_ADDRESS: to(p.limits),
        },
      },
      {
        name: 'solicitation-service',
        ready: ready(p.solicitationsOps),
        env: { ...common, PORT: String(p.solicitations), OPS_PORT: String(p.solicitationsOps), BANK_PRODUCTION_URL: bank, BANK_SANDBOX_URL: bank },
      },
      {
        name: 'payout-query-service',
        ready: ready(p.payoutQueryOps),
        env: { ...common, PORT: String(p.payoutQuery), OPS_PORT: String(p.payoutQueryOps), PAYOUT_QUERY_HTTP_PORT: String(p.payoutQueryHttp) },
      },
      {
        name: 'webhook-dispatcher',
        ready: ready(p.webhooksOps),
        env: {
          ...common,
          PORT: String(p.webhooks),
          OPS_PORT: String(p.webhooksOps),
          WEBHOOK_ALLOW_LOOPBACK: WEBHOOK_LOOPBACK,
          WEBHOOK_RESERVED_PORTS: reservedPorts(),
        },
      },
      {
        name: 'receipt-service',
        ready: ready(p.receiptsOps),
        env: {
          ...common,
          PORT: String(p.receipts),
          OPS_PORT: String(p.receiptsOps),
          PROVIDER_A_URL: `${bank}/provider-a`,
          PROVIDER_B_URL: `${bank}/provider-b`,
        },
      },
      {
        name: 'api-gateway',
        ready: ready(p.gatewayOps),
        env: {
          ...common,
          PORT: String(p.gateway),
          OPS_PORT: String(p.gatewayOps),
          SANDBOX_PORT: String(p.sandbox),
          ADMIN_PORT: String(p.admin),
          ADMIN_TOKEN: adminToken,
          LIMITS_SERVICE_ADDRESS: to(p.limits),
          RECURRENCE_SERVICE_ADDRESS: to(p.recurrences),
          SOLICITATION_SERVICE_ADDRESS: to(p.solicitations),
          PAYMENTS_SERVICE_ADDRESS: to(p.payments),
          PAYOUT_QUERY_SERVICE_ADDRESS: to(p.payoutQuery),
          PAYOUT_QUERY_CSV_URL: `http://127.0.0.1:${p.payoutQueryHttp}`,
          WEBHOOK_DISPATCHER_ADDRESS: to(p.webhooks),
          RECEIPT_SERVICE_ADDRESS: to(p.receipts),
          CONSOLE_PUBLIC_URL: `http://127.0.0.1:${p.console}`,
        },
      },
      // The merchant console (its page and its own routes), in front of the gateway's three listeners: started last.
      {
        name: 'console-server',
        ready: ready(p.consoleOps),
        env: {
          ...common,
          PORT: String(p.console),
          OPS_PORT: String(p.consoleOps),
          ADMIN_TOKEN: adminToken,
          CONSOLE_PRODUCTION_API_URL: `http://127.0.0.1:${p.gateway}`,
          CONSOLE_SANDBOX_API_URL: `http://127.0.0.1:${p.sandbox}`,
          CONSOLE_ADMIN_API_URL: `http://127.0.0.1:${p.admin}`,
        },
      },
    ],
    replicas,
  );
}

/** The status of `url`'s answer; throws when nothing answers. Its readiness checks take up to 2 s each. */
async function statusAt(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Until the app's /health/ready answers 200: its ops listener answers from the start, 503 while it migrates, creates
 * its topics and joins its consumer groups, and while its database, Kafka or Redis does not answer.
 */
async function waitReady(url, child, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode} before it was ready`);
    if ((await statusAt(url).catch(() => undefined)) === 200) return;
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/**
 * Every app process started here and still running: killed when this process exits, however it exits (a test run
 * that fails or is stopped never leaves apps behind holding ports and connections).
 */
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** How long a whole system may take to start by default (each app waits for the one before): past it the start fails. */
const STARTUP_BOUND_MS = 180_000;

/**
 * Starts every app (built under dist/) and waits until each is ready (each within `readyTimeoutMs`, all within
 * `startupBoundMs`). Logs go to .data/logs/<profile>/<app>.log unless `inherit` is set (npm start shows them).
 * `everyAppEnv` adds to every app's environment (the tests' loopback-only preload), and `appEnv` to one app's, over
 * it (tests: `{ 'webhook-dispatcher': { NODE_OPTIONS: ... } }`); neither replaces the settings above.
 */
async function startSystem({
  profile = 'dev',
  adminToken,
  secretsKeys,
  documentKey,
  inherit = false,
  everyAppEnv = {},
  appEnv = {},
  readyTimeoutMs = 60_000,
  startupBoundMs = STARTUP_BOUND_MS,
  replicas = 1,
} = {}) {
  const logDir = path.join(ROOT, '.data', 'logs', profile);
  fs.mkdirSync(logDir, { recursive: true });
  const apps = appsOf(profile, adminToken, secretsKeys, documentKey, replicas);
  const running = new Map();

  const launch = async (app, readyWithinMs = readyTimeoutMs) => {
    const main = path.join(ROOT, 'dist', 'apps', app.program ?? app.name, 'src', 'main.js');
    if (!fs.existsSync(main)) throw new Error(`${main} is missing: build first (npx nx run-many -t build)`);
    // Another instance still on the port would answer the readiness check while this one fails to listen.
    if (
      await statusAt([app.ready].flat()[0]).then(
        () => true,
        () => false,
      )
    )
      throw new Error(`${[app.ready].flat()[0]} already answers: is another ${app.name} (profile ${profile}) still running?`);
    const out = inherit ? 'inherit' : fs.openSync(path.join(logDir, `${app.name}.log`), 'a');
    const child = spawn(process.execPath, [...NODE_FLAGS, main], {
      cwd: ROOT,
      env: { ...process.env, ...app.env, ...everyAppEnv, ...appEnv[app.program ?? app.name] },
      stdio: ['ignore', out, out],
    });
    running.set(app.name, child);
    children.add(child);
    child.once('exit', () => children.delete(child));
    for (const url of [app.ready].flat()) await waitReady(url, child, readyWithinMs);
    return child;
  };

  /**
   * Signals the app and waits for it to exit: its exit code (null when killed by a signal) and how long it took. An app
   * exits within 10 s of SIGTERM (GracefulShutdown, exit 1 past it); one that is still there at 12 s is killed.
   */
  const stopOne = async (name, signal = 'SIGTERM') => {
    const child = running.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return { exitCode: child?.exitCode ?? null, ms: 0 };
    const signalled = performance.now();
    const exited = new Promise((resolve) => child.once('exit', (exitCode) => resolve({ exitCode, ms: performance.now() - signalled })));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
    const outcome = await exited;
    clearTimeout(timer);
    return outcome;
  };

  const startupDeadline = performance.now() + startupBoundMs;
  try {
    // One app after the other, each after those it calls; an app's replicas together, as an orchestrator starts them.
    for (const replicasOfApp of Object.values(Object.groupBy(apps, (app) => app.program ?? app.name))) {
      const within = Math.max(1000, Math.min(readyTimeoutMs, startupDeadline - performance.now()));
      const started = await Promise.allSettled(replicasOfApp.map((app) => launch(app, within)));
      const failed = started.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    }
  } catch (error) {
    for (const name of [...running.keys()].reverse()) await stopOne(name);
    throw error;
  }

  return {
    profile: profileOf(profile),
    /** Each app process and its readiness URLs (the gateway's processes, each with its own ops listener). */
    get readiness() {
      return apps.filter((app) => running.has(app.name)).map((app) => ({ name: app.name, ready: [app.ready].flat() }));
    },
    /** The names of the apps running. */
    get apps() {
      return [...running.keys()];
    },
    pidOf: (name) => running.get(name)?.pid,
    /** kill -9: no shutdown hooks, no draining; what was committed must survive. */
    crash: (name) => stopOne(name, 'SIGKILL').then(() => undefined),
    /** SIGTERM, as an orchestrator stops it: resolves to `{exitCode, ms}` once it has exited (restart starts it again). */
    terminate: (name) => stopOne(name),
    /** SIGTERM, then started again; `env` adds to its settings for this start only (the bench turning gateway hooks off). */
    restart: async (name, env = {}) => {
      await stopOne(name);
      const app = apps.find((candidate) => candidate.name === name);
      await launch({ ...app, env: { ...app.env, ...env } });
    },
    /** A second instance of an app on other ports (`env` overrides its settings), stopped with the rest. */
    startReplica: async (name, env, port) => {
      const app = apps.find((candidate) => candidate.name === name);
      const opsPort = env.OPS_PORT ?? String(port + 50);
      const replica = {
        ...app,
        name: `${name}-replica`,
        program: name,
        env: { ...app.env, OPS_PORT: opsPort, ...env },
        ready: `http://127.0.0.1:${opsPort}/health/ready`,
      };
      apps.push(replica);
      await launch(replica);
    },
    /** The console and the gateway first (no new traffic), then the services together, then the bank they call. */
    stop: async () => {
      const gateways = apps.filter((app) => app.name.startsWith('api-gateway') || app.name.startsWith('console-server'));
      const banks = apps.filter((app) => app.name.startsWith('bank-simulator'));
      const services = apps.filter((app) => !gateways.includes(app) && !banks.includes(app));
      for (const group of [gateways, services, banks]) await Promise.all(group.map((app) => stopOne(app.name)));
    },
  };
}

module.exports = { ROOT, NODE_FLAGS, PROFILES, MAX_REPLICAS, profileOf, appsOf, startSystem };
