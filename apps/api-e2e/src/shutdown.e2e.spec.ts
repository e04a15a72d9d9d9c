import { newMerchant, Merchant, freshCpf } from './support/fixtures';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { RECURRENCE_TOPIC, RECURRENCES, recurrenceBody } from './support/recurrences';
import { RunningSystem, startSystem } from './support/running-system';
import { shutdownDeadlineMs } from '@pixauto/runtime';
import { eventually } from '@pixauto/testing';

// SIGTERM under load, as an orchestrator stops a pod (docs/operations.md "Shutdown"): the app exits 0 within 10 s;
// /health/ready turns 503 at once; every request sent before the signal is answered in full; a request after it may
// be refused (503 with Retry-After, or the port closed) but is then not executed; what was acknowledged is readable
// after the restart, and each of its events is published once: the outbox was flushed, not left for the next start.
//
// `npm test` drains recurrence-service and the gateway once each. deploy/scripts/drain-loop.mjs runs this file with
// SHUTDOWN_APPS (a comma-separated list, or "all") and SHUTDOWN_ROUNDS to drain every app many times in a row.

const WRITERS = 6;
/** The apps run with the default SHUTDOWN_DELAY_MS. */
const DEADLINE_MS = shutdownDeadlineMs(1000);

/** Where each app says whether it is ready (the bank simulator, which has no ops listener, is left out of that check). */
const readinessPort: Record<string, (profile: RunningSystem['profile']) => number | undefined> = {
  'api-gateway': (p) => p.gatewayOps,
  'recurrence-service': (p) => p.recurrencesOps,
  'solicitation-service': (p) => p.solicitationsOps,
  'limits-service': (p) => p.limitsOps,
  'payments-service': (p) => p.paymentsOps,
  'payout-query-service': (p) => p.payoutQueryOps,
  'webhook-dispatcher': (p) => p.webhooksOps,
  'receipt-service': (p) => p.receiptsOps,
  'bank-simulator': () => undefined,
};
/** The apps a writer's request waits on: while one of them is away, some requests are refused. */
const ANSWERS_THE_LOAD = ['api-gateway', 'recurrence-service', 'limits-service', 'payments-service', 'bank-simulator'];
const APPS = process.env.SHUTDOWN_APPS === 'all' ? Object.keys(readinessPort) : (process.env.SHUTDOWN_APPS ?? 'recurrence-service,api-gateway').split(',');
const ROUNDS = Number(process.env.SHUTDOWN_ROUNDS ?? 1);

let system: RunningSystem;
let watcher: TopicWatcher;

beforeAll(async () => {
  system = await startSystem();
  watcher = new TopicWatcher(RECURRENCE_TOPIC);
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
  await system?.stop();
});

/**
 * What a writer sends, in turn: a recurrence (recurrence-service, the bank, and the consumers of its events), a
 * customer limit (limits-service) and a payout (payments-service, limits-service, the bank, and the payout read
 * models), so that every app has work in flight when it is signalled.
 */
const KINDS = ['recurrence', 'limit', 'payout'] as const;
type Kind = (typeof KINDS)[number];

function requestOf(kind: Kind, merchant: Merchant): { port: 'gateway' | 'sandbox'; path: string; key: string; body: Record<string, unknown>; created: number } {
  if (kind === 'recurrence') return { port: 'gateway', path: RECURRENCES, key: merchant.production, body: recurrenceBody(), created: 201 };
  if (kind === 'limit')
    return {
      port: 'gateway',
      path: '/v2/limits',
      key: merchant.production,
      body: { document_number: freshCpf(), type: 'cashout', mechanism: 'quantity', quantity: 5 },
      created: 200,
    };
  const transaction_id = `drain-${process.pid}-${Math.random().toString(36).slice(2, 14)}`;
  return {
    port: 'sandbox',
    path: '/v2/payout/pix',
    key: merchant.sandbox,
    body: { transaction_id, amount: 7.25, name: 'Maria Silva', document_number: freshCpf(), pix_key: 'maria@example.com' },
    created: 201,
  };
}

/** One request as a merchant sends it: what came back, and when it was sent. */
type Attempt = { kind: Kind; transactionId?: string; sentAt: number } & (
  | { outcome: 'created'; recurrenceId?: string }
  | { outcome: 'refused'; how: string } // 503 with Retry-After, or nothing listening
  | { outcome: 'cut'; how: string } // the connection closed without an answer
  | { outcome: 'failed'; how: string } // any other answer: never acceptable
);

async function send(kind: Kind, merchant: Merchant): Promise<Attempt> {
  const request = requestOf(kind, merchant);
  const transactionId = kind === 'recurrence' ? String(request.body.transaction_id) : undefined;
  const sentAt = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${system.profile[request.port]}${request.path}`, {
      method: 'POST',
      headers: { authorization: request.key, 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(15_000), // an answer that never comes is a failure, not a hang
    });
    const text = await response.text();
    if (response.status === request.created) return { kind, transactionId, sentAt, outcome: 'created', recurrenceId: JSON.parse(text).recurrence_id };
    if (response.status === 503 && response.headers.get('retry-after') === '1') return { kind, transactionId, sentAt, outcome: 'refused', how: `503 ${text}` };
    return { kind, transactionId, sentAt, outcome: 'failed', how: `${response.status} ${text}` };
  } catch (error) {
    const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    if (code === 'TimeoutError') return { kind, transactionId, sentAt, outcome: 'failed', how: code };
    return { kind, transactionId, sentAt, outcome: code === 'ECONNREFUSED' ? 'refused' : 'cut', how: code };
  }
}

/** Writers until stopped; a refused writer waits a little, as a client honouring Retry-After. */
function load(merchant: Merchant) {
  const attempts: Attempt[] = [];
  let flowing = true;
  const writer = async (first: number) => {
    for (let turn = first; flowing; turn++) {
      const attempt = await send(KINDS[turn % KINDS.length], merchant);
      attempts.push(attempt);
      if (attempt.outcome !== 'created') await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
  const created = () => attempts.filter((attempt) => attempt.outcome === 'created').length;
  return {
    attempts,
    until: (count: number) => eventually(created, (n) => n >= count, { timeoutMs: 60_000, what: 'writes created' }),
    created,
    stop: async () => {
      flowing = false;
      await Promise.all(writers);
    },
  };
}

const readyStatus = (port: number) =>
  fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(5000) }).then(
    async (response) => ({ status: response.status, body: await response.json() }),
    () => undefined,
  );

async function outboxOf(merchant: Merchant): Promise<number> {
  const [row] = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT count(*)::int AS n FROM outbox WHERE payload->'tenant'->>'account_id' = $1`,
    [merchant.accountId],
  );
  return Number(row.n);
}

/**
 * Under load: terminate `app`, check how it went, start it again; returns every attempt once the load is stopped.
 * The writers are stopped and the app is running again whatever happens, so that a failed expectation fails this test
 * alone instead of leaving writers running or the next test without its app.
 */
async function terminateUnderLoad(app: string, merchant: Merchant, afterExit: () => Promise<void>): Promise<Attempt[]> {
  const writers = load(merchant);
  let signalledAt = Infinity;
  let running = true;
  try {
    await writers.until(20);
    signalledAt = performance.now();
    running = false;
    const exit = system.terminate(app);
    const opsPort = readinessPort[app](system.profile);
    if (opsPort !== undefined) {
      // Not ready from the signal on, while it still serves.
      const ready = await eventually(
        () => readyStatus(opsPort),
        (answer) => answer?.status !== 200,
        { timeoutMs: 5000, intervalMs: 0, what: `${app} not ready from the signal on` },
      );
      expect(ready).toEqual({ status: 503, body: expect.objectContaining({ status: 'error', error: { app: { status: 'down', message: 'shutting down' } } }) });
    }
    const { exitCode, ms } = await exit;
    expect({ app, exitCode, withinDeadline: ms < DEADLINE_MS }).toEqual({ app, exitCode: 0, withinDeadline: true });
    await afterExit();
    const before = writers.created();
    await system.restart(app);
    running = true;
    await writers.until(before + 20);
  } finally {
    await writers.stop();
    if (!running) await system.restart(app);
  }
  const { attempts } = writers;
  // The bank is not ours: while it is away a request that needs it is answered as the bank's outage, which is no drain's fault.
  const failed = attempts.filter((attempt) => attempt.outcome === 'failed' && !(app === 'bank-simulator' && attempt.sentAt > signalledAt));
  expect(failed).toEqual([]);
  // Everything sent before the signal was answered in full: created, or refused whole (503 with Retry-After, as an
  // overloaded service answers; checkWrites proves such a refusal left nothing), never cut.
  expect(attempts.filter((attempt) => attempt.sentAt < signalledAt && attempt.outcome === 'cut')).toEqual([]);
  return attempts;
}

/** Acknowledged recurrences: readable, recorded once, published once. Refused or cut: never executed. */
async function checkWrites(merchant: Merchant, attempts: Attempt[]): Promise<void> {
  const recurrences = attempts.filter((attempt) => attempt.kind === 'recurrence');
  const acknowledged = recurrences.flatMap((attempt) => (attempt.outcome === 'created' ? [attempt.recurrenceId] : []));
  const rows = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT r.transaction_id, r.recurrence_id, (SELECT count(*)::int FROM events e WHERE e.account_id = r.account_id AND e.data->>'transaction_id' = r.transaction_id) AS events
       FROM recurrences r WHERE r.account_id = $1`,
    [merchant.accountId],
  );
  const stored = new Map(rows.map((row) => [String(row.transaction_id), { recurrenceId: String(row.recurrence_id), events: Number(row.events) }]));
  for (const attempt of recurrences) {
    const expected = attempt.outcome === 'created' ? { recurrenceId: attempt.recurrenceId, events: 1 } : undefined;
    expect({ attempt, stored: stored.get(attempt.transactionId!) }).toEqual({ attempt, stored: expected });
  }
  expect(stored.size).toBe(acknowledged.length);
  const published = () =>
    watcher.seen
      .filter((event) => event.envelope.type === 'recurrence.created' && event.envelope.tenant.account_id === merchant.accountId)
      .map((event) => event.envelope.stream_id.split(':').pop());
  await watcher.waitFor(() => acknowledged.every((id) => published().includes(id)));
  const times = new Map<string | undefined, number>();
  for (const id of published()) times.set(id, (times.get(id) ?? 0) + 1);
  expect([...times].filter(([, count]) => count !== 1)).toEqual([]);
}

const rounds = Array.from({ length: ROUNDS }, (_, index) => index + 1);
describe.each(APPS)('%s drains on SIGTERM under load', (app) => {
  it.each(rounds)(
    `round %i: requests it took are answered, later ones refused and never executed, exit 0 within the deadline`,
    async () => {
      const merchant = await newMerchant(system);
      const attempts = await terminateUnderLoad(app, merchant, async () => {
        // recurrence-service flushed its outbox: nothing it committed waits there for the next start.
        if (app === 'recurrence-service') expect(await outboxOf(merchant)).toBe(0);
      });
      // An app that answers the writers' requests really went away under load (the others only consume their events).
      if (ANSWERS_THE_LOAD.includes(app)) expect(attempts.some((attempt) => attempt.outcome !== 'created')).toBe(true);
      await checkWrites(merchant, attempts);
    },
    120_000,
  );
});
