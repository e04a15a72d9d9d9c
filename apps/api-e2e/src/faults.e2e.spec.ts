import { Kafka, logLevel } from 'kafkajs';
import path from 'node:path';
import { Client } from 'pg';
import { cpf, newMerchant, Merchant } from './support/fixtures';
import { eventually, until } from '@pixauto/testing';
import { PrivateKafka, PrivatePostgres, PrivateRedis, waitForPort } from './support/private-servers';
import { ADMIN_TOKEN, LOOPBACK_ONLY, RunningSystem } from './support/running-system';

// Infrastructure faults under load, through the gateway: PostgreSQL restarted, Redis restarted, the Kafka broker
// killed (kill -9) and started again, each while eight writers set customer limits. Every answer is a success, or a
// 503 or 429 with Retry-After in the error shape: never a 500, never a request left without an answer. Nothing
// acknowledged is lost or recorded twice, every app is ready again and every outbox drained within the bounds below.
// The servers are the suite's own (a PostgreSQL cluster, a redis-server and a broker on ports of their own, data
// under .data/faults): the machine's shared ones are never restarted, other suites run beside this one.

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const launcher = require('../../../deploy/scripts/system.cjs') as { ROOT: string; startSystem: (options: object) => Promise<RunningSystem> };

const DIR = path.join(launcher.ROOT, '.data', 'faults');
const WRITERS = 8;
const TOPIC = 'pixauto.limits.events.v1';
// Ports below Linux's ephemeral range (32768 up), where an outgoing connection could hold one.
/** The bounds this suite proves, from the moment the server is back. */
const READY_WITHIN_MS = 60_000;
const DRAINED_WITHIN_MS = 90_000;
/** Writes taken before the fault and after the server is back (few: the suite shares two cores with the rest). */
const WRITES = 20;

const postgres = new PrivatePostgres(path.join(DIR, 'postgres'), 25_432);
const redis = new PrivateRedis(path.join(DIR, 'redis'), 26_379);
const kafka = new PrivateKafka(path.join(DIR, 'kafka'), 29_092, 29_093);
const shared = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, KAFKA_BROKERS: process.env.KAFKA_BROKERS };

let system: RunningSystem | undefined;
let merchant: Merchant;
const measured: Record<string, unknown>[] = [];

beforeAll(async () => {
  await Promise.all([postgres.start(), redis.start(), kafka.start()]);
  // startSystem hands its environment to every app: the system under test uses the suite's own servers.
  Object.assign(process.env, { DATABASE_URL: postgres.url, REDIS_URL: redis.url, KAFKA_BROKERS: kafka.brokers });
  // A generous start: the suite runs beside the others on two cores.
  system = await launcher.startSystem({
    profile: 'faults',
    adminToken: ADMIN_TOKEN,
    readyTimeoutMs: 180_000,
    startupBoundMs: 360_000,
    everyAppEnv: { NODE_OPTIONS: LOOPBACK_ONLY },
  });
  merchant = await newMerchant(system);
}, 400_000);

afterAll(async () => {
  try {
    await system?.stop();
  } finally {
    await Promise.all([kafka.stop(), redis.stop(), postgres.stop()]);
    for (const [name, value] of Object.entries(shared)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (measured.length) console.log(`fault suite, measured:\n${measured.map((line) => JSON.stringify(line)).join('\n')}`);
  }
}, 180_000);

interface Outcome {
  status: number; // 0: no HTTP answer at all
  retryAfter: string | null;
  body: unknown;
  error?: string;
}

let sequence = Math.floor(Math.random() * 1e8);

/**
 * Eight writers set a limit for a new customer each, as fast as they are answered (half with an Idempotency-Key,
 * whose records are in Redis); a refused write is not repeated, so each acknowledged one is exactly one limit.
 */
function startWriters() {
  const acknowledged = new Map<string, number>(); // document → centavos
  const failures: Outcome[] = [];
  let flowing = true;
  const writer = async (index: number) => {
    while (flowing) {
      const document = cpf(++sequence);
      const centavos = 100 + (sequence % 100_000);
      const headers: Record<string, string> = { authorization: merchant.production, 'content-type': 'application/json' };
      if (index % 2 === 0) headers['idempotency-key'] = `faults-${document}`;
      let failure: Outcome | undefined;
      try {
        const response = await fetch(`http://127.0.0.1:${system!.profile.gateway}/v2/limits`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ document_number: document, type: 'cashout', mechanism: 'amount', amount: centavos / 100 }),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        if (response.status === 200) acknowledged.set(document, centavos);
        else failure = { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
      } catch (error) {
        failure = { status: 0, retryAfter: null, body: undefined, error: String(error) };
      }
      if (failure) {
        failures.push(failure);
        await sleep(50); // a refused writer backs off a little, as a client honouring Retry-After would (less, to keep the load on)
      }
    }
  };
  const running = Array.from({ length: WRITERS }, (_, index) => writer(index));
  return {
    acknowledged,
    failures,
    stop: async () => {
      flowing = false;
      await Promise.all(running);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const opsPorts = () => {
  const p = system!.profile;
  return [p.gatewayOps, p.limitsOps, p.recurrencesOps, p.solicitationsOps, p.paymentsOps, p.payoutQueryOps, p.webhooksOps, p.receiptsOps];
};

async function allReady(): Promise<boolean> {
  const statuses = await Promise.all(
    opsPorts().map((port) =>
      fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(3_000) }).then(
        (response) => response.arrayBuffer().then(() => response.status),
        () => 0,
      ),
    ),
  );
  return statuses.every((status) => status === 200);
}

async function query<T = Record<string, unknown>>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const url = new URL(postgres.url);
  url.pathname = `/${database}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Events committed but not yet acknowledged by Kafka, in every database of the system. */
async function outboxBacklog(): Promise<number> {
  const databases = await query<{ datname: string }>('postgres', 'SELECT datname FROM pg_database WHERE datname LIKE $1', [
    `${system!.profile.databasePrefix}\\_%`,
  ]);
  let backlog = 0;
  for (const { datname } of databases) {
    const [table] = await query<{ found: boolean }>(datname, `SELECT to_regclass('outbox') IS NOT NULL AS found`);
    if (table.found) backlog += (await query<{ n: number }>(datname, 'SELECT count(*)::int AS n FROM outbox'))[0].n;
  }
  return backlog;
}

/** The documents of this merchant's limit events on the topic, read from its beginning on the suite's broker. */
async function publishedDocuments(expected: Iterable<string>, timeoutMs: number): Promise<Map<string, number>> {
  const want = new Set(expected);
  const seen = new Map<string, number>(); // document → times published
  const client = new Kafka({ clientId: 'faults-reader', brokers: [kafka.brokers], logLevel: logLevel.NOTHING });
  const consumer = client.consumer({ groupId: `faults-${process.pid}-${Math.random().toString(36).slice(2)}` });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(String(message.value));
        if (envelope.tenant?.account_id !== merchant.accountId) return;
        const document = String(envelope.data.document_number);
        seen.set(document, (seen.get(document) ?? 0) + 1);
      },
    });
    await eventually(
      () => [...want].filter((document) => !seen.has(document)),
      (missing) => missing.length === 0,
      { timeoutMs, intervalMs: 100, what: 'acknowledged limits missing on Kafka' },
    );
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return seen;
}

/**
 * Writers on, the fault, writers on until the system has taken `after` more writes since the server came back, writers
 * off (in finally), then every promise checked. Returns what was measured.
 */
async function underFault(name: string, fault: () => Promise<{ outageMs: number }>): Promise<void> {
  const writers = startWriters();
  let outageMs = 0;
  let readyMs = 0;
  let resumedMs = 0;
  try {
    await until(() => writers.acknowledged.size >= WRITES, { timeoutMs: 120_000, intervalMs: 100, what: 'writes before the fault' });
    ({ outageMs } = await fault());
    const back = writers.acknowledged.size;
    readyMs = await until(allReady, { timeoutMs: READY_WITHIN_MS, intervalMs: 100, what: 'every app ready again' });
    resumedMs = await until(() => writers.acknowledged.size >= back + WRITES, { timeoutMs: 120_000, intervalMs: 100, what: 'writes after the fault' });
  } finally {
    await writers.stop();
  }

  // No 500, no request left unanswered: every failure a 503 or 429, with Retry-After, in the error shape.
  const statuses = writers.failures.reduce<Record<string, number>>(
    (counts, failure) => ({ ...counts, [failure.status]: (counts[failure.status] ?? 0) + 1 }),
    {},
  );
  const wrong = writers.failures.filter(
    (failure) => ![503, 429].includes(failure.status) || !failure.retryAfter || typeof (failure.body as { message?: unknown })?.message !== 'string',
  );
  measured.push({ fault: name, acknowledged: writers.acknowledged.size, refused: statuses, outageMs, readyMs, resumedMs });
  expect(wrong.slice(0, 5)).toEqual([]);

  // Every outbox drained: nothing committed stays unpublished.
  measured[measured.length - 1].drainedMs = await until(async () => (await outboxBacklog()) === 0, {
    timeoutMs: DRAINED_WITHIN_MS,
    intervalMs: 100,
    what: 'every outbox drained',
  });

  // Nothing acknowledged lost: each readable with the amount acknowledged.
  const documents = [...writers.acknowledged.keys()];
  const lost: string[] = [];
  for (let i = 0; i < documents.length; i += WRITERS) {
    await Promise.all(
      documents.slice(i, i + WRITERS).map(async (document) => {
        const response = await fetch(`http://127.0.0.1:${system!.profile.gateway}/v2/limits?document_number=${document}&type=cashout`, {
          headers: { authorization: merchant.production },
        });
        const body = (await response.json()) as { amount?: number };
        if (response.status !== 200 || body.amount !== writers.acknowledged.get(document)! / 100) lost.push(document);
      }),
    );
  }
  expect(lost).toEqual([]);

  // Nothing recorded twice: one event per limit, each at version 1, and every acknowledged one published.
  const [stored] = await query<{ events: number; limits: number; max_version: number }>(
    `${system!.profile.databasePrefix}_limits`,
    'SELECT count(*)::int AS events, count(DISTINCT stream_id)::int AS limits, max(version) AS max_version FROM events WHERE account_id = $1',
    [merchant.accountId],
  );
  expect(stored.events).toBe(stored.limits);
  expect(stored.max_version).toBe(1);
  const published = await publishedDocuments(documents, 60_000);
  expect(documents.filter((document) => !published.has(document))).toEqual([]);
  measured[measured.length - 1].publishedTwice = [...published.values()].filter((times) => times > 1).length;
}

it('PostgreSQL restarted under load (fast shutdown: every session terminated): no 500, nothing lost, all ready again', async () => {
  await underFault('postgres restart', async () => {
    const started = performance.now();
    await postgres.restart();
    return { outageMs: Math.round(performance.now() - started) };
  });
}, 300_000);

it('Redis restarted under load (its data gone): no 500, nothing lost, all ready again', async () => {
  await underFault('redis restart', async () => {
    const started = performance.now();
    await redis.stop();
    await sleep(3_000); // down past the gateway's 1 s command timeout, so that requests meet it
    await redis.start();
    return { outageMs: Math.round(performance.now() - started) };
  });
}, 300_000);

it('the Kafka broker killed (kill -9) under load and started again: writes go on, outboxes catch up, nothing lost', async () => {
  await underFault('kafka kill -9', async () => {
    const started = performance.now();
    await kafka.kill();
    await waitForPort(kafka.port, 10_000, false);
    await sleep(2_000);
    await kafka.start();
    return { outageMs: Math.round(performance.now() - started) };
  });
}, 400_000);
