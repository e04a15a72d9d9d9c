// npm run bench:scale: the same merchant load and the same charge day on one and on two replicas of every app (the
// bench system of deploy/scripts/system.cjs, `replicas` as `npm start -- --replicas N` runs it), and how the work
// splits between the replicas. For each replica count, on fresh databases:
//   1. load: CONNECTIONS merchants' connections for SECONDS on the sandbox port, each looping over create a recurrence
//      (with a webhook), set a limit, create a payout (with a webhook), then read each back at once (read-your-writes);
//   2. a charge day: CHARGES approved recurrences seeded (as bench:charges does) and issued by the schedulers;
//   3. with two replicas or more, the load again, with a kill -9 of one replica of every service and of one gateway
//      process halfway through, each started again a second later (as an orchestrator would).
// Every create that got no answer, or a 5xx or 409, is sent again with the same Idempotency-Key until it is answered,
// as a merchant's client does. Then the checks: every create is there exactly once (by its transaction_id, in the
// owning service's database), every read of one's own write found it, every payout reached the bank and was paid,
// every webhook event arrived (once per event: a repeat of a delivery carries the same webhook-id), and the charge day
// issued each charge once (bench:charges' checks).
// Per replica, from each process's /metrics before and after a phase: the share of RPC requests, of Kafka messages
// consumed, of webhook deliveries, of payouts sent to the bank and of charges issued; each must lie within ±30% of an
// even split (35% to 65% for two) in a full run. CPU per process over the load phase gives what one replica of each
// app carries per core.
// Options: SCALE_BENCH_SECONDS (20), SCALE_BENCH_CONNECTIONS (20), SCALE_BENCH_CHARGES (100000), SCALE_BENCH_REPLICAS
// (1,2), BENCH_SKIP_BUILD (use dist/ as it is), BENCH_SMOKE=1 (tiny: two replicas only, 3 s of load at 4 connections,
// 200 charges; shares printed, not checked: `npm test` runs it). Writes .data/bench/scale.md; exits 1 if a check fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Agent, request } from 'undici';
import { benchDatabaseUrl, countOf, dropBenchDatabases, json, setting, SMOKE } from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { PROFILES, ROOT, startSystem } from '../../scripts/system.cjs';
import { chargeDayChecks, cpfOf, seed } from '../charges/seed.mjs';
import { cpuByGroup } from '../proc.mjs';

const SECONDS = setting('SCALE_BENCH_SECONDS', 20, 3);
const CONNECTIONS = setting('SCALE_BENCH_CONNECTIONS', 20, 4);
const CHARGES = setting('SCALE_BENCH_CHARGES', 100_000, 200);
const REPLICAS = (process.env.SCALE_BENCH_REPLICAS ?? (SMOKE ? '2' : '1,2')).split(',').map(Number);
const ADMIN_TOKEN = 'bench-admin-token';
/** How long the checks wait for the system to finish what the load set off (payouts paid, webhooks delivered). */
const SETTLE_MS = 180_000;
/** An even split, ±30%: for two replicas, each does 35% to 65% of the work. */
const SHARE_TOLERANCE = 0.3;
const p = PROFILES.bench;

const log = (message) => console.log(`[bench:scale] ${message}`);
const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

// ---- the merchant's webhook endpoint ----

/** A loopback endpoint answering 204: every request's webhook-id and event, in arrival order. */
function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ webhookId: req.headers['webhook-id'], type: body.type, data: body.data });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, received, url: `http://127.0.0.1:${server.address().port}/hook` })));
}

// ---- metrics: each process's /metrics, per replica ----

/** Every process of the system with its ops listener: `recurrence-service-2`, `api-gateway#1`... */
function opsListeners(system) {
  return system.readiness.flatMap(({ name, ready }) =>
    ready.map((url, i) => ({
      process: ready.length > 1 ? `${name}#${i}` : name,
      app: name.replace(/-\d+$/, ''),
      metrics: url.replace('/health/ready', '/metrics'),
    })),
  );
}

/** Sum of a metric's samples whose labels include `labels`. */
function sumOf(text, name, labels = {}) {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{([^}]*)\})? ([^ ]+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => have[key] === value)) sum += Number(match[4]);
  }
  return sum;
}

/** What each process has done so far, by kind of work. A process that does not answer (killed) counts nothing. */
async function workDone(system) {
  const done = {};
  for (const { process, app, metrics } of opsListeners(system)) {
    const text = await fetch(metrics, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.text())
      .catch(() => '');
    done[process] = {
      app,
      'RPC requests': sumOf(text, 'pixauto_rpc_request_duration_seconds_count'),
      'HTTP requests': app === 'api-gateway' ? sumOf(text, 'pixauto_http_request_duration_seconds_count') : 0,
      'Kafka messages consumed': sumOf(text, 'pixauto_kafka_messages_consumed_total'),
      'webhook deliveries': sumOf(text, 'pixauto_webhook_deliveries_total', { outcome: 'delivered' }),
      'payouts sent to the bank': sumOf(text, 'pixauto_bank_request_duration_seconds_count', { operation: 'PUT /pagamentos/:id' }),
      'charges issued at the bank': sumOf(text, 'pixauto_bank_request_duration_seconds_count', { operation: 'PUT /cobr/:id' }),
    };
  }
  return done;
}

const KINDS = ['HTTP requests', 'RPC requests', 'Kafka messages consumed', 'webhook deliveries', 'payouts sent to the bank', 'charges issued at the bank'];

/** Per app with more than one process and per kind of work it did: each process's share of what the app did between two readings. */
function sharesBetween(before, after) {
  const rows = [];
  const apps = [...new Set(Object.values(after).map((d) => d.app))];
  for (const app of apps) {
    const processes = Object.keys(after).filter((name) => after[name].app === app);
    if (processes.length < 2) continue;
    for (const kind of KINDS) {
      const deltas = processes.map((name) => after[name][kind] - (before[name]?.[kind] ?? 0));
      const total = deltas.reduce((a, b) => a + b, 0);
      if (total < 10) continue;
      rows.push({ app, kind, total, shares: processes.map((name, i) => ({ process: name, share: deltas[i] / total })) });
    }
  }
  return rows;
}

/**
 * The gateway processes' HTTP requests split by connection, as the kernel hands each new connection to one of them
 * (SO_REUSEPORT): shown, not held to the range, since a few long-lived connections may land unevenly.
 */
const BY_CONNECTION = 'HTTP requests';
const outOfRange = (row) =>
  row.kind !== BY_CONNECTION && row.shares.some(({ share }) => Math.abs(share - 1 / row.shares.length) > SHARE_TOLERANCE / row.shares.length);

// ---- CPU per process ----

/** Each app process's pid, the gateway's processes (children of its supervisor) by their index. */
function pidsOf(system) {
  const pids = new Map();
  for (const name of system.apps) {
    const pid = system.pidOf(name);
    if (name === 'api-gateway') {
      const workers = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number);
      if (workers.length > 0) {
        workers.forEach((worker, i) => pids.set(`api-gateway#${i}`, worker));
        continue;
      }
    }
    pids.set(name, pid);
  }
  return pids;
}

// ---- the load ----

/** One merchant's connection: create a recurrence, set a limit, create a payout, each read back at once; every answer in `ledger`. */
async function merchantLoop(http, ctx, until, ledger) {
  const send = async (entry) => {
    const started = performance.now();
    try {
      const response = await request(`${ctx.base}${entry.path}`, {
        method: entry.method,
        dispatcher: http,
        headers: {
          authorization: ctx.key,
          ...(entry.body ? { 'content-type': 'application/json', 'idempotency-key': entry.key } : {}),
        },
        body: entry.body ? JSON.stringify(entry.body) : undefined,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const body = await response.body.text();
      entry.status = response.statusCode;
      entry.answer = body;
    } catch (error) {
      entry.status = 'no answer';
      entry.answer = error.code ?? error.message;
    }
    entry.ms = performance.now() - started;
    ledger.push(entry);
    return entry;
  };
  while (performance.now() < until) {
    const n = ctx.next++;
    const tx = `${ctx.run}-${n}`;
    const recurrence = await send({
      op: 'POST recurrence',
      method: 'POST',
      path: '/v2/automatic-pix/recurrences',
      key: randomUUID(),
      transactionId: tx,
      body: {
        transaction_id: tx,
        debtor: { document_number: cpfOf(ctx.documents + n), name: 'Maria Souza' },
        schedule: { start_date: ctx.startDate, periodicity: 'MONTHLY' },
        amount: 49.9,
        retry_policy: 'NOT_ALLOWED',
        webhook: ctx.webhook,
      },
    });
    if (recurrence.status === 201)
      await send({ op: 'GET recurrence', method: 'GET', path: `/v2/automatic-pix/recurrences/${JSON.parse(recurrence.answer).recurrence_id}` });
    const document = cpfOf(ctx.documents + 500_000 + n);
    const limit = await send({
      op: 'POST limit',
      method: 'POST',
      path: '/v2/limits',
      key: randomUUID(),
      document,
      body: { document_number: document, type: 'cashin', mechanism: 'amount', amount: 100 + (n % 900) },
    });
    if (limit.status === 200 || limit.status === 201)
      await send({ op: 'GET limit', method: 'GET', path: `/v2/limits?document_number=${document}&type=cashin` });
    const payout = await send({
      op: 'POST payout',
      method: 'POST',
      path: '/v2/payout/pix',
      key: randomUUID(),
      transactionId: tx,
      body: {
        transaction_id: tx,
        amount: 10 + (n % 90),
        name: 'Maria Silva',
        document_number: cpfOf(ctx.documents + 900_000 + n),
        pix_key: 'maria@example.com',
        webhook: ctx.webhook,
      },
    });
    if (payout.status === 201) await send({ op: 'GET payout', method: 'GET', path: `/v2/withdrawals?transaction_id=${tx}` });
  }
}

/** Answers a merchant sends again: none, a 5xx (a replica gone mid-request), a 409 (the key still held by a request that died with its gateway process). */
const unsettled = (entry) => entry.status === 'no answer' || entry.status === 409 || entry.status >= 500;

/** Sends every unsettled create again with its Idempotency-Key and body, once a second, until each is answered. */
async function resendUnsettled(http, ctx, creates) {
  const deadline = performance.now() + 120_000;
  let pending = creates.filter(unsettled);
  const resent = pending.length;
  while (pending.length > 0 && performance.now() < deadline) {
    await sleep(1000);
    for (const entry of pending) {
      try {
        const response = await request(`${ctx.base}${entry.path}`, {
          method: 'POST',
          dispatcher: http,
          headers: { authorization: ctx.key, 'content-type': 'application/json', 'idempotency-key': entry.key },
          body: JSON.stringify(entry.body),
        });
        entry.status = response.statusCode;
        entry.answer = await response.body.text();
      } catch (error) {
        entry.status = 'no answer';
        entry.answer = error.code ?? error.message;
      }
    }
    pending = pending.filter(unsettled);
  }
  return { resent, unanswered: pending.length };
}

/** A create is done when answered 201 (or replayed), or refused because its first, unanswered, run had created it. */
const created = (entry) => entry.status === 201 || entry.status === 200 || (entry.status === 400 && /already exists/.test(entry.answer));

/**
 * One load phase; with `kill`, a kill -9 halfway through of one replica of every service and of one gateway process,
 * each started again a second later. Resolves to the answers, the work each process did and the CPU it used.
 */
async function loadPhase(system, ctx, { kill = false } = {}) {
  const http = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  const ledger = [];
  const before = await workDone(system);
  const pids = pidsOf(system);
  const cpuBefore = cpuByGroup(pids);
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const killed = [];
  const killer = kill
    ? (async () => {
        await sleep((SECONDS * 1000) / 2);
        const victims = system.apps.filter((name) => /-2$/.test(name));
        const gatewayWorker = pidsOf(system).get('api-gateway#1');
        await Promise.all(victims.map((name) => system.crash(name)));
        if (gatewayWorker) process.kill(gatewayWorker, 'SIGKILL'); // its supervisor starts it again
        killed.push(...victims, ...(gatewayWorker ? ['api-gateway#1'] : []));
        log(`  kill -9 at ${((performance.now() - started) / 1000).toFixed(1)} s: ${killed.join(', ')}`);
        await sleep(1000);
        await Promise.all(victims.map((name) => system.restart(name)));
        log(`  started again by ${((performance.now() - started) / 1000).toFixed(1)} s`);
      })()
    : Promise.resolve();
  await Promise.all(Array.from({ length: CONNECTIONS }, () => merchantLoop(http, ctx, until, ledger)));
  const elapsedS = (performance.now() - started) / 1000;
  await killer;
  const cpuAfter = cpuByGroup(pidsOf(system));
  const after = await workDone(system);
  const creates = ledger.filter((e) => e.method === 'POST');
  const firstAnswers = Object.fromEntries(Object.entries(Object.groupBy(ledger, (e) => `${e.op} ${e.status}`)).map(([k, v]) => [k, v.length]));
  const resend = await resendUnsettled(http, ctx, creates);
  await http.close();
  const byOp = Object.groupBy(ledger, (e) => e.op);
  return {
    kill,
    killed,
    elapsedS,
    requests: ledger.length,
    rps: ledger.length / elapsedS,
    latency: Object.fromEntries(
      Object.entries(byOp).map(([op, entries]) => [
        op,
        {
          n: entries.length,
          p50: percentile(
            entries.map((e) => e.ms),
            0.5,
          ),
          p99: percentile(
            entries.map((e) => e.ms),
            0.99,
          ),
        },
      ]),
    ),
    firstAnswers,
    resend,
    creates,
    missedReads: ledger.filter((e) => e.method === 'GET' && e.status !== 200 && !(kill && (e.status === 'no answer' || e.status >= 500))),
    unavailableReads: ledger.filter((e) => e.method === 'GET' && (e.status === 'no answer' || e.status >= 500)).length,
    shares: sharesBetween(before, after),
    workBefore: before,
    cpuSeconds: Object.fromEntries(
      Object.entries(cpuAfter)
        .map(([group, s]) => [group, s - (cpuBefore[group] ?? 0)])
        .filter(([, s]) => s > 0.05),
    ),
  };
}

// ---- checks of a load phase ----

/** Waits until every payout is paid and every webhook event arrived (or SETTLE_MS passed); then what is missing or twice. */
async function checkLoad(system, phase, ctx, receiver, dbs) {
  const recurrences = phase.creates.filter((e) => e.op === 'POST recurrence');
  const limits = phase.creates.filter((e) => e.op === 'POST limit');
  const payouts = phase.creates.filter((e) => e.op === 'POST payout');
  const notCreated = phase.creates.filter((e) => !created(e));
  const createdTx = (entries) => entries.filter(created).map((e) => e.transactionId);
  const recurrenceTx = createdTx(recurrences);
  const payoutTx = createdTx(payouts);

  const deadline = performance.now() + SETTLE_MS;
  const arrivals = () => {
    const byEvent = new Map();
    // A recurrence names its transaction_id `contract` in what the API shows; a payout `transaction_id`.
    for (const { webhookId, type, data } of receiver.received) {
      const key = `${type} ${data.transaction_id ?? data.contract}${type === 'payout.status_changed' ? ` ${data.status}` : ''}`;
      const ids = byEvent.get(key) ?? new Map();
      byEvent.set(key, ids.set(webhookId, (ids.get(webhookId) ?? 0) + 1));
    }
    return byEvent;
  };
  const expectedEvents = [
    ...recurrenceTx.map((tx) => `recurrence.created ${tx}`),
    ...payoutTx.flatMap((tx) => [`payout.created ${tx}`, `payout.status_changed ${tx} 1`]),
  ];
  let missingEvents = expectedEvents;
  let unpaid = payoutTx.length;
  let nextNote = performance.now() + 10_000;
  for (;;) {
    const byEvent = arrivals();
    missingEvents = expectedEvents.filter((key) => !byEvent.has(key));
    unpaid = await countOf(dbs.payments, `SELECT count(*) FROM payouts WHERE account_id = $1 AND transaction_id LIKE $2 AND status <> 1`, [
      ctx.accountId,
      `${ctx.run}-%`,
    ]);
    if ((missingEvents.length === 0 && unpaid === 0) || performance.now() > deadline) break;
    if (performance.now() >= nextNote) {
      log(`  waiting: ${unpaid} payouts not paid, ${missingEvents.length} webhook events not arrived (e.g. ${missingEvents.slice(0, 2).join(', ')})`);
      nextNote += 10_000;
    }
    await sleep(500);
  }
  const byEvent = arrivals();
  const rows = async (db, table) =>
    new Map(
      (
        await db.query(`SELECT transaction_id, count(*)::int AS n FROM ${table} WHERE account_id = $1 AND transaction_id LIKE $2 GROUP BY 1`, [
          ctx.accountId,
          `${ctx.run}-%`,
        ])
      ).rows.map((r) => [r.transaction_id, r.n]),
    );
  const recurrenceRows = await rows(dbs.recurrence, 'recurrences');
  const payoutRows = await rows(dbs.payments, 'payouts');
  const limitDocuments = limits.filter(created).map((e) => e.document);
  const limitRows = await countOf(
    dbs.limits,
    `SELECT count(*) FROM customer_limits WHERE account_id = $1 AND document_number = ANY($2) AND limit_type = 'cashin'`,
    [ctx.accountId, limitDocuments],
  );
  // The bench's databases hold this run's payouts only: every one paid here is paid at the bank, once (idEnvio is its key there).
  const paidHere = await countOf(dbs.payments, 'SELECT count(*) FROM payouts WHERE status = 1');
  const paidAtBank = await countOf(dbs.bank, `SELECT count(*) FROM payouts WHERE status = 'REALIZADO'`);
  const eventTwice = [...byEvent.entries()].filter(([, ids]) => ids.size > 1).map(([key]) => key);
  const repeats = [...byEvent.values()].reduce((sum, ids) => sum + [...ids.values()].reduce((a, n) => a + n - 1, 0), 0);
  // Without a crash, each payout is handed to the bank once (a crash may hand it again: the bank adopts the same idEnvio).
  // Counted once every payout is paid, each handed to the bank by then: the sender takes a payout made in the load's
  // last moment after the load's end (and after the shares above were read).
  const sentToBank = async () => {
    const settled = await workDone(system);
    const sent = (name) => settled[name]['payouts sent to the bank'] - (phase.workBefore[name]?.['payouts sent to the bank'] ?? 0);
    return Object.keys(settled).reduce((sum, name) => sum + sent(name), 0);
  };
  const checks = [
    ['creates not answered after resending', phase.resend.unanswered, 0],
    ['creates refused', notCreated.length, 0],
    ['reads of one’s own write not found', phase.missedReads.length, 0],
    ['recurrences missing in recurrence-service', recurrenceTx.filter((tx) => !recurrenceRows.has(tx)).length, 0],
    ['recurrences there twice, or not created by the load', [...recurrenceRows].filter(([tx, n]) => n > 1 || !recurrenceTx.includes(tx)).length, 0],
    ['payouts missing in payments-service', payoutTx.filter((tx) => !payoutRows.has(tx)).length, 0],
    ['payouts there twice, or not created by the load', [...payoutRows].filter(([tx, n]) => n > 1 || !payoutTx.includes(tx)).length, 0],
    ['limits missing in limits-service', limitDocuments.length - limitRows, 0],
    ['payouts not paid', unpaid, 0],
    ['payouts paid at the bank and not here, or here and not there', Math.abs(paidAtBank - paidHere), 0],
    ['webhook events missing', missingEvents.length, 0],
    ['webhook events sent as two deliveries', eventTwice.length, 0],
  ];
  if (!phase.kill) checks.push(['payouts sent to the bank (PUT /pagamentos)', await sentToBank(), payoutTx.length]);
  return {
    checks,
    counts: { recurrences: recurrenceTx.length, limits: limitDocuments.length, payouts: payoutTx.length, webhooks: receiver.received.length, repeats },
    examples: {
      notCreated: notCreated.slice(0, 3).map((e) => `${e.op} ${e.status} ${String(e.answer).slice(0, 160)}`),
      missingEvents: missingEvents.slice(0, 3),
      eventTwice: eventTwice.slice(0, 3),
    },
  };
}

// ---- a charge day ----

async function chargeDay(system, dbs) {
  const { nextChargeAt, client } = await seed(dbs.recurrence, dbs.bank, { n: CHARGES, accounts: 10, log });
  for (const table of ['events', 'recurrences', 'charge_schedule']) await dbs.recurrence.query(`VACUUM ANALYZE ${table}`);
  for (let waited = 0; (await countOf(dbs.bank, 'SELECT count(*) FROM recurring_charge_webhooks WHERE client = $1', [client])) === 0; waited += 250) {
    if (waited > 30_000) throw new Error('recurrence-service registered no cobr webhook at the bank in 30 s');
    await sleep(250);
  }
  const before = await workDone(system);
  const pids = pidsOf(system);
  const cpuBefore = cpuByGroup(pids);
  const started = performance.now();
  await dbs.recurrence.query(`UPDATE charge_schedule SET next_charge_at = $1 WHERE environment = 'production' AND next_charge_at IS NULL`, [nextChargeAt]);
  let charges = 0;
  while ((charges = await countOf(dbs.recurrence, 'SELECT count(*) FROM charges')) < CHARGES && performance.now() - started < 900_000) await sleep(500);
  const elapsedS = (performance.now() - started) / 1000;
  const cpuAfter = cpuByGroup(pids);
  for (let waited = 0; (await countOf(dbs.recurrence, 'SELECT count(*) FROM outbox')) > 0 && waited < 300_000; waited += 250) await sleep(250);
  await sleep(1500); // the last recurrences' scheduler note (postponeNextCharge) follows their charge
  const after = await workDone(system);
  const { checks, expected } = await chargeDayChecks(dbs.recurrence, dbs.bank, client, CHARGES);
  return {
    elapsedS,
    rate: charges / elapsedS,
    checks: Object.keys(expected).map((k) => [k, checks[k], expected[k]]),
    shares: sharesBetween(before, after).filter((row) => row.app === 'recurrence-service' && row.kind === 'charges issued at the bank'),
    cpuSeconds: Object.fromEntries(
      Object.entries(cpuAfter)
        .map(([group, s]) => [group, s - (cpuBefore[group] ?? 0)])
        .filter(([, s]) => s > 0.05),
    ),
  };
}

// ---- one system ----

async function runWith(replicas) {
  await dropBenchDatabases();
  log(`starting the bench system with ${replicas} replica(s) of every app`);
  const system = await startSystem({ profile: 'bench', adminToken: ADMIN_TOKEN, replicas });
  // Stopped (not orphaned) when the bench is interrupted.
  const onSignal = () => void system.stop().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const receiver = await startReceiver();
  const dbs = Object.fromEntries(
    Object.entries({ recurrence: 'recurrence', payments: 'payments', limits: 'limits', bank: 'bank_simulator' }).map(([k, db]) => [
      k,
      new pg.Client({ connectionString: benchDatabaseUrl(db) }),
    ]),
  );
  try {
    for (const db of Object.values(dbs)) await db.connect();
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const account = await json(`http://127.0.0.1:${p.admin}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Scale bench' }) });
    const key = await json(`http://127.0.0.1:${p.admin}/admin/accounts/${account.account_id}/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ environment: 'sandbox' }),
    });
    const ctx = {
      base: `http://127.0.0.1:${p.sandbox}`,
      key: key.api_key,
      accountId: account.account_id,
      webhook: receiver.url,
      startDate: new Date(Date.now() - 3 * 3600_000 + 86_400_000).toISOString().slice(0, 10), // tomorrow in Brasília
      next: 0,
      documents: 100_000_000 + replicas * 1_000_000,
    };
    const result = { replicas, processes: system.readiness.flatMap((r) => r.ready).length };
    log(`load: ${CONNECTIONS} connections for ${SECONDS} s`);
    ctx.run = `scale${replicas}a`;
    result.load = await loadPhase(system, ctx);
    result.loadChecks = await checkLoad(system, result.load, ctx, receiver, dbs);
    log(`charge day: ${CHARGES} recurrences`);
    result.chargeDay = await chargeDay(system, dbs);
    if (replicas > 1) {
      log(`load with a kill -9 of one replica of every app halfway`);
      receiver.received.length = 0;
      ctx.run = `scale${replicas}k`;
      result.kill = await loadPhase(system, ctx, { kill: true });
      result.killChecks = await checkLoad(system, result.kill, ctx, receiver, dbs);
    }
    return result;
  } finally {
    for (const db of Object.values(dbs)) await db.end().catch(() => undefined);
    receiver.server.closeAllConnections();
    receiver.server.close();
    await system.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// ---- the report ----

const pct = (share) => `${Math.round(share * 100)}%`;
const fixed = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function report(results) {
  const lines = [
    `npm run bench:scale: ${CONNECTIONS} connections for ${SECONDS} s of merchant load (sandbox: create a recurrence, set a limit, create a payout, each read back), a charge day of ${CHARGES} recurrences; ${os.cpus().length} cores, Node ${process.version}`,
    '',
    '| replicas of each app | load req/s | POST recurrence p50 / p99 ms | POST payout p50 / p99 ms | GET limit p50 / p99 ms | CPU ms per request (all processes) | charge day s | charges/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const l = r.load.latency;
    const cpuTotal = Object.values(r.load.cpuSeconds).reduce((a, b) => a + b, 0);
    lines.push(
      `| ${r.replicas} | ${Math.round(r.load.rps)} | ${fixed(l['POST recurrence']?.p50)} / ${fixed(l['POST recurrence']?.p99)} | ${fixed(l['POST payout']?.p50)} / ${fixed(l['POST payout']?.p99)} | ${fixed(l['GET limit']?.p50)} / ${fixed(l['GET limit']?.p99)} | ${fixed((cpuTotal * 1000) / r.load.requests, 2)} | ${fixed(r.chargeDay.elapsedS)} | ${Math.round(r.chargeDay.rate)} |`,
    );
  }
  for (const r of results) {
    lines.push(
      '',
      `CPU during the load, ${r.replicas} replica(s): per process, ms per merchant request, and the requests/s one core would carry for that process`,
      '',
    );
    lines.push('| process | CPU s | ms per request | requests/s per core |', '|---|---:|---:|---:|');
    for (const [process, s] of Object.entries(r.load.cpuSeconds).sort((a, b) => b[1] - a[1]))
      lines.push(`| ${process} | ${fixed(s)} | ${fixed((s * 1000) / r.load.requests, 2)} | ${Math.round(r.load.requests / s)} |`);
  }
  for (const r of results.filter((x) => x.replicas > 1)) {
    lines.push('', `How the work split, ${r.replicas} replicas (load without a kill; charges from the charge day)`, '');
    lines.push('| app | work | total | per process |', '|---|---|---:|---|');
    for (const row of [...r.load.shares, ...r.chargeDay.shares])
      lines.push(
        `| ${row.app} | ${row.kind} | ${row.total} | ${row.shares.map(({ process, share }) => `${process} ${pct(share)}`).join(', ')}${outOfRange(row) ? ' (outside the range)' : ''} |`,
      );
  }
  for (const r of results) {
    const phases = [
      ['load', r.load, r.loadChecks],
      ['load with kill -9', r.kill, r.killChecks],
    ].filter(([, phase]) => phase);
    for (const [name, phase, checked] of phases) {
      lines.push(
        '',
        `Checks, ${r.replicas} replica(s), ${name}: ${phase.requests} requests (${checked.counts.recurrences} recurrences, ${checked.counts.limits} limits, ${checked.counts.payouts} payouts), ${phase.resend.resent} creates sent again; ${checked.counts.webhooks} webhooks received, ${checked.counts.repeats} repeats of one delivery${phase.killed.length ? `; killed: ${phase.killed.join(', ')}` : ''}${phase.unavailableReads ? `; ${phase.unavailableReads} reads answered 503 or unanswered while replicas died` : ''}`,
      );
      lines.push(
        `first answers: ${Object.entries(phase.firstAnswers)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
      );
      for (const [check, value, expected] of checked.checks) lines.push(`- ${check}: ${value}${value === expected ? '' : ` (expected ${expected}) FAILED`}`);
      for (const [what, examples] of Object.entries(checked.examples)) if (examples.length) lines.push(`  e.g. ${what}: ${examples.join(' | ')}`);
    }
    lines.push('', `Checks, ${r.replicas} replica(s), charge day:`);
    for (const [check, value, expected] of r.chargeDay.checks) lines.push(`- ${check}: ${value}${value === expected ? '' : ` (expected ${expected}) FAILED`}`);
  }
  return lines;
}

function failures(results) {
  const failed = [];
  for (const r of results) {
    for (const [phase, checked] of [
      ['load', r.loadChecks],
      ['load with kill -9', r.killChecks],
    ])
      for (const [check, value, expected] of checked?.checks ?? []) if (value !== expected) failed.push(`${r.replicas} replicas, ${phase}: ${check}`);
    for (const [check, value, expected] of r.chargeDay.checks) if (value !== expected) failed.push(`${r.replicas} replicas, charge day: ${check}`);
    if (!SMOKE && r.replicas > 1)
      for (const row of [...r.load.shares, ...r.chargeDay.shares])
        if (outOfRange(row)) failed.push(`${r.replicas} replicas: ${row.app}'s ${row.kind} split unevenly`);
  }
  return failed;
}

await up();
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
const results = [];
try {
  for (const replicas of REPLICAS) results.push(await runWith(replicas));
} finally {
  await dropBenchDatabases();
}
const lines = report(results);
console.log(`\n${lines.join('\n')}`);
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.data', 'bench', 'scale.md'), `${lines.join('\n')}\n`);
const failed = failures(results);
if (failed.length > 0) {
  log(`FAILED: ${failed.join('; ')}`);
  process.exitCode = 1;
}
