// npm run bench:webhooks: the webhook-dispatcher alone, against a local receiver, on its own databases. It runs with the
// bench profile's settings from system.cjs (appsOf: ports, keys, every variable `npm start` gives it), its databases
// under a prefix of its own, and its messages carry that prefix as their system, so no other system acts on them.
// Events are published to Kafka the way the services' outboxes publish them (payout events, each carrying the
// whole payout and its webhook, 100 accounts), and the latency is publish → request received at the endpoint:
//   0. baseline: the same requests POSTed straight from here to the receiver at the same rate (HTTP alone);
//   1. 200 events/s for BENCH_SECONDS, every endpoint healthy: p50/p99;
//   2. 200 events/s of sandbox accounts, each event also handed to the account's `pixauto listen` channel (one PUBLISH
//      per event, one pipeline per batch), and 3. the same with the dispatcher restarted with SANDBOX_LISTEN=off: the
//      publish's price as the dispatcher's and Redis's CPU per event (phase 1 prints the same for production events);
//   4. saturation: 20,000 events published at once: deliveries/s until the last arrives;
//   5. 200 events/s with 10% of the endpoints hanging (never answering): p50/p99 of the healthy ones.
// Options: BENCH_SECONDS (20), BENCH_WEBHOOKS_BURST (20000), BENCH_SKIP_BUILD (use dist/ as it is), BENCH_SMOKE=1 (tiny:
// 2 s a phase, a burst of 500, what `npm test` runs). Leaves nothing behind (its databases dropped).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { Agent, request } from 'undici';
import { onDatabase, serverUrl, setting } from '../../scripts/bench-support.mjs';
import { cpuSecondsOf } from '../proc.mjs';
import { up } from '../../scripts/infra.mjs';
import { appsOf, NODE_FLAGS, ROOT } from '../../scripts/system.cjs';

const SECONDS = setting('BENCH_SECONDS', 20, 2);
const RATE = 200;
const ACCOUNTS = 100;
const BURST = setting('BENCH_WEBHOOKS_BURST', 20_000, 500);
const PREFIX = `pixauto_benchwh${randomBytes(3).toString('hex')}`;
/** The dispatcher as the bench system runs it (system.cjs), on databases of its own. */
const DISPATCHER = appsOf('bench', 'bench-admin-token').find((app) => app.name === 'webhook-dispatcher');
const SYSTEM_HEADER = 'pixauto-system'; // libs/messaging: a dispatcher acts only on its own system's messages
const TOPICS = { accounts: 'pixauto.accounts.events.v1', payouts: 'pixauto.payouts.events.v1' };

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const summary = (latencies) => `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${latencies.length} requests)`;

/** The merchants' endpoints: /ok/<account> answers 204 at once, /hang/<account> never answers. Arrival times by transaction_id. */
function startReceiver() {
  const arrivals = new Map();
  const hanging = new Set();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      if (request.url.startsWith('/hang/')) {
        hanging.add(response);
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = body.data.transaction_id;
      if (!arrivals.has(id)) arrivals.set(id, at);
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        arrivals,
        port: server.address().port,
        close: () => {
          for (const response of hanging) response.destroy();
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

const envelope = (type, streamId, tenant, data) => ({
  event_id: randomUUID(),
  type,
  stream_id: streamId,
  version: 1,
  tenant,
  occurred_at: new Date().toISOString(),
  data,
});

let payoutId = 0;
/** A payout event whose transaction_id carries its publication time. */
function payoutEvent(accountId, url, publishedAt, environment = 'production') {
  const id = ++payoutId;
  const tenant = { account_id: accountId, environment };
  return envelope('payout.created', `payout:${accountId}:${environment}:${id}`, tenant, {
    payout: {
      id,
      transaction_id: `b${publishedAt}-${id}`,
      name: 'Maria Silva',
      document_number: '52998224725',
      document_type: 'CPF',
      amount_centavos: 1000,
      status: 0,
      pix_key: 'maria@example.com',
      bank: { type: 'PIX', bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
      webhook: url,
      provider: 'PROVIDER_A',
      created_at: new Date(publishedAt).toISOString(),
      paid_at: null,
      e2e: null,
      psp_id: null,
    },
  });
}

const message = (event) => ({ key: event.stream_id, value: JSON.stringify(event), headers: { 'event-type': event.type, [SYSTEM_HEADER]: PREFIX } });

/** `rate` events per second for `seconds`, in batches every 50 ms (as an outbox does); resolves with the transaction_ids sent. */
async function steady(producer, seconds, urlOf, accounts, environment = 'production') {
  const sent = [];
  const perTick = RATE / 20;
  const started = performance.now();
  for (let tick = 0; tick < seconds * 20; tick++) {
    const now = Date.now();
    const events = Array.from({ length: perTick }, (_, i) => {
      const account = accounts[(tick * perTick + i) % accounts.length];
      return { account, event: payoutEvent(account, urlOf(account), now, environment) };
    });
    await producer.send({ topic: TOPICS.payouts, messages: events.map(({ event }) => message(event)) });
    sent.push(...events.map(({ account, event }) => ({ account, id: event.data.payout.transaction_id })));
    const wait = started + (tick + 1) * 50 - performance.now();
    if (wait > 0) await sleep(wait);
  }
  return sent;
}

/** The CPU the dispatcher and Redis spend on what `work` makes happen, in ms per event. */
async function cpuPerEvent(dispatcherPid, work) {
  const redisPid = Number(execFileSync('pgrep', ['-o', 'redis-server'], { encoding: 'utf8' }).trim());
  const before = [cpuSecondsOf(dispatcherPid), cpuSecondsOf(redisPid)];
  const ids = await work();
  const [dispatcher, redis] = [(cpuSecondsOf(dispatcherPid) - before[0]) * 1000, (cpuSecondsOf(redisPid) - before[1]) * 1000];
  return { ids, text: `CPU per event: dispatcher ${(dispatcher / ids.length).toFixed(3)} ms, Redis ${(redis / ids.length).toFixed(3)} ms` };
}

/** Until every one of `ids` has arrived, or the timeout: then the bench fails, saying how many never came. */
async function waitForArrivals(receiver, ids, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (ids.some((id) => !receiver.arrivals.has(id)) && performance.now() < deadline) await sleep(50);
  const missing = ids.filter((id) => !receiver.arrivals.has(id)).length;
  if (missing > 0) {
    console.error(`${missing} of ${ids.length} events not delivered within ${timeoutMs / 1000} s`);
    process.exitCode = 1;
  }
}

const latencies = (receiver, ids) =>
  ids.filter((id) => receiver.arrivals.has(id)).map((id) => receiver.arrivals.get(id) - Number(id.slice(1, id.indexOf('-'))));

/** Baseline: the same JSON POSTed by this process to the receiver at the same rate, keep-alive: HTTP on this machine alone. */
async function baseline(receiver, seconds) {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const results = [];
  const started = performance.now();
  const inflight = [];
  for (let tick = 0; tick < seconds * 20; tick++) {
    for (let i = 0; i < RATE / 20; i++) {
      const event = payoutEvent('baseline', '', Date.now());
      const t0 = performance.now();
      inflight.push(
        request(`http://127.0.0.1:${receiver.port}/ok/baseline`, {
          method: 'POST',
          dispatcher: agent,
          body: JSON.stringify({ type: 'x', timestamp: '', data: event.data.payout }),
        })
          .then((r) => r.body.dump())
          .then(() => results.push(performance.now() - t0)),
      );
    }
    const wait = started + (tick + 1) * 50 - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inflight);
  await agent.close();
  return results;
}

/** Until the dispatcher's /health/ready answers 200 (migrated, topics made, consumer groups joined); bounded. */
async function waitReady(url, child, timeoutMs = 90_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`webhook-dispatcher exited with ${child.exitCode} before it was ready`);
    const status = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => undefined,
    );
    if (status === 200) return;
    await sleep(200);
  }
  throw new Error(`webhook-dispatcher: ${url} not ready after ${timeoutMs} ms`);
}

async function main() {
  await up();
  if (!process.env.BENCH_SKIP_BUILD)
    spawnSync('npx', ['swc', 'apps', 'libs', '-d', 'dist', '--config-file', '.swcrc', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  const receiver = await startReceiver();
  const startDispatcher = (env = {}) =>
    spawn(process.execPath, [...NODE_FLAGS, path.join(ROOT, 'dist/apps/webhook-dispatcher/src/main.js')], {
      cwd: ROOT,
      // The bench's made-up tenants are mostly production ones, and its receiver is on loopback.
      env: { ...process.env, ...DISPATCHER.env, DATABASE_PREFIX: PREFIX, WEBHOOK_ALLOW_LOOPBACK: 'all', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const stopDispatcher = async (child) => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  };
  let dispatcher = startDispatcher();
  const kafka = new Kafka({ clientId: 'bench-webhooks', brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  try {
    await waitReady(DISPATCHER.ready, dispatcher);
    await producer.connect();
    const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
    await producer.send({
      topic: TOPICS.accounts,
      messages: accounts.map((id) =>
        message(
          envelope(
            'account.opened',
            `account:${id}`,
            { account_id: id, environment: 'production' },
            {
              account_id: id,
              name: 'Bench',
              wallet: true,
              cashin_provider: 'PROVIDER_A',
              providers: [],
              webhook_secret: `whsec_${randomBytes(24).toString('base64')}`,
              sandbox_webhook_secret: `whsec_${randomBytes(24).toString('base64')}`,
            },
          ),
        ),
      ),
    });
    await sleep(2000);
    const ok = (account) => `http://127.0.0.1:${receiver.port}/ok/${account}`;
    console.log(
      `webhooks bench: ${ACCOUNTS} accounts, ${RATE} events/s for ${SECONDS} s per phase, this machine: ${(await import('node:os')).cpus().length} cores`,
    );

    // Warm-up (connections, JIT), not measured.
    await waitForArrivals(
      receiver,
      (await steady(producer, 2, ok, accounts)).map((s) => s.id),
    );

    console.log(`0. baseline, HTTP alone at ${RATE}/s: ${summary(await baseline(receiver, Math.min(SECONDS, 10)))}`);

    const phase1 = await cpuPerEvent(dispatcher.pid, async () => {
      const ids = (await steady(producer, SECONDS, ok, accounts)).map((s) => s.id);
      await waitForArrivals(receiver, ids);
      return ids;
    });
    console.log(`1. ${RATE} events/s, every endpoint healthy: publish → received ${summary(latencies(receiver, phase1.ids))}; ${phase1.text}`);

    // Before the hanging endpoints' phase, whose deliveries would still be waiting in the restarted dispatcher.
    const sandboxPhase = async (label) => {
      const phase = await cpuPerEvent(dispatcher.pid, async () => {
        const ids = (await steady(producer, SECONDS, ok, accounts, 'sandbox')).map((s) => s.id);
        await waitForArrivals(receiver, ids);
        return ids;
      });
      console.log(`${label}: publish → received ${summary(latencies(receiver, phase.ids))}; ${phase.text}`);
    };
    await sandboxPhase(`2. ${RATE} sandbox events/s, each handed to the listeners (SANDBOX_LISTEN=on)`);
    await stopDispatcher(dispatcher);
    dispatcher = startDispatcher({ SANDBOX_LISTEN: 'off' });
    await waitReady(DISPATCHER.ready, dispatcher);
    await waitForArrivals(
      receiver,
      (await steady(producer, 2, ok, accounts, 'sandbox')).map((s) => s.id),
    ); // warm-up
    await sandboxPhase(`3. ${RATE} sandbox events/s, the dispatcher restarted with SANDBOX_LISTEN=off`);

    const burstStart = Date.now();
    const burst = [];
    for (let i = 0; i < BURST; i += 500) {
      const events = Array.from({ length: 500 }, (_, j) => payoutEvent(accounts[(i + j) % ACCOUNTS], ok(accounts[(i + j) % ACCOUNTS]), burstStart));
      await producer.send({ topic: TOPICS.payouts, messages: events.map(message) });
      burst.push(...events.map((e) => e.data.payout.transaction_id));
    }
    await waitForArrivals(receiver, burst, 300_000);
    const last = Math.max(...burst.map((id) => receiver.arrivals.get(id) ?? 0));
    const arrived = burst.filter((id) => receiver.arrivals.has(id)).length;
    console.log(
      `4. saturation: ${arrived} of ${BURST} delivered in ${((last - burstStart) / 1000).toFixed(1)} s: ${Math.round(arrived / ((last - burstStart) / 1000))} deliveries/s`,
    );

    const hanging = new Set(accounts.slice(0, ACCOUNTS / 10));
    const mixed = await steady(
      producer,
      SECONDS,
      (account) => (hanging.has(account) ? `http://127.0.0.1:${receiver.port}/hang/${account}` : ok(account)),
      accounts,
    );
    const healthyIds = mixed.filter((s) => !hanging.has(s.account)).map((s) => s.id);
    await waitForArrivals(receiver, healthyIds);
    console.log(`5. ${RATE} events/s, 10% of endpoints hanging: healthy ones publish → received ${summary(latencies(receiver, healthyIds))}`);
  } finally {
    await producer.disconnect().catch(() => undefined);
    await stopDispatcher(dispatcher);
    receiver.close();
    await onDatabase(serverUrl, async (client) => {
      const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${PREFIX}\\_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
    });
  }
}

await main();
