import { newMerchant, Merchant } from './support/fixtures';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { RECURRENCE_TOPIC, RECURRENCES, recurrenceBody } from './support/recurrences';
import { RunningSystem, startSystem } from './support/system';

// SIGTERM under load, as an orchestrator stops a pod (README "Running in production"): the app exits 0 within 10 s;
// /health/ready turns 503 at once; every request sent before the signal is answered in full; a request after it may
// be refused (503 with Retry-After, or the port closed) but is then not executed; what was acknowledged is readable
// after the restart, and each of its events is published once: the outbox was flushed, not left for the next start.

const WRITERS = 6;

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

/** One create as a merchant sends it: what came back, and when it was sent. */
type Attempt = { transactionId: string; sentAt: number } & (
  | { outcome: 'created'; recurrenceId: string }
  | { outcome: 'refused'; how: string } // 503 with Retry-After, or nothing listening
  | { outcome: 'cut'; how: string } // the connection closed without an answer
  | { outcome: 'failed'; how: string } // any other answer: never acceptable
);

async function create(port: number, key: string): Promise<Attempt> {
  const body = recurrenceBody();
  const transactionId = String(body.transaction_id);
  const sentAt = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}${RECURRENCES}`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000), // an answer that never comes is a failure, not a hang
    });
    const text = await response.text();
    if (response.status === 201) return { transactionId, sentAt, outcome: 'created', recurrenceId: JSON.parse(text).recurrence_id };
    if (response.status === 503 && response.headers.get('retry-after') === '1') return { transactionId, sentAt, outcome: 'refused', how: `503 ${text}` };
    return { transactionId, sentAt, outcome: 'failed', how: `${response.status} ${text}` };
  } catch (error) {
    const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    if (code === 'TimeoutError') return { transactionId, sentAt, outcome: 'failed', how: code };
    return { transactionId, sentAt, outcome: code === 'ECONNREFUSED' ? 'refused' : 'cut', how: code };
  }
}

/** Writers creating recurrences until stopped; a refused writer waits a little, as a client honouring Retry-After. */
function load(port: number, merchant: Merchant) {
  const attempts: Attempt[] = [];
  let flowing = true;
  const writer = async () => {
    while (flowing) {
      const attempt = await create(port, merchant.production);
      attempts.push(attempt);
      if (attempt.outcome !== 'created') await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  const created = () => attempts.filter((attempt) => attempt.outcome === 'created').length;
  return {
    attempts,
    until: (count: number) => waitUntil(() => created() >= count),
    created,
    stop: async () => {
      flowing = false;
      await Promise.all(writers);
    },
  };
}

const readyStatus = (port: number) => fetch(`http://127.0.0.1:${port}/health/ready`).then(
  async (response) => ({ status: response.status, body: await response.json() }),
  () => undefined,
);

async function outboxOf(merchant: Merchant): Promise<number> {
  const [row] = await queryService(system.profile.databasePrefix, 'recurrence', `SELECT count(*)::int AS n FROM outbox WHERE payload->'tenant'->>'account_id' = $1`, [merchant.accountId]);
  return Number(row.n);
}

/** Under load: terminate `app`, check how it went, start it again; returns every attempt once the load is stopped. */
async function terminateUnderLoad(app: string, opsPort: number, merchant: Merchant, afterExit: () => Promise<void>): Promise<Attempt[]> {
  const writers = load(system.profile.gateway, merchant);
  await writers.until(20);
  const signalledAt = performance.now();
  const exit = system.terminate(app);
  // Not ready from the signal on, while it still serves.
  let ready = await readyStatus(opsPort);
  while (ready?.status === 200) ready = await readyStatus(opsPort);
  expect(ready).toEqual({ status: 503, body: expect.objectContaining({ status: 'error', error: { app: { status: 'down', message: 'shutting down' } } }) });
  const { exitCode, ms } = await exit;
  expect({ exitCode, withinDeadline: ms < 10_000 }).toEqual({ exitCode: 0, withinDeadline: true });
  await afterExit();
  const before = writers.created();
  await system.restart(app);
  await writers.until(before + 20);
  await writers.stop();

  const { attempts } = writers;
  expect(attempts.filter((attempt) => attempt.outcome === 'failed')).toEqual([]);
  // Everything sent before the signal was accepted, and answered in full.
  expect(attempts.filter((attempt) => attempt.sentAt < signalledAt && attempt.outcome !== 'created')).toEqual([]);
  expect(attempts.some((attempt) => attempt.outcome !== 'created')).toBe(true); // the app really went away under load
  return attempts;
}

/** Acknowledged: readable, recorded once, published once. Refused or cut: never executed. */
async function checkWrites(merchant: Merchant, attempts: Attempt[]): Promise<void> {
  const acknowledged = attempts.flatMap((attempt) => (attempt.outcome === 'created' ? [attempt.recurrenceId] : []));
  const rows = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT r.transaction_id, r.recurrence_id, (SELECT count(*)::int FROM events e WHERE e.account_id = r.account_id AND e.data->>'transaction_id' = r.transaction_id) AS events
       FROM recurrences r WHERE r.account_id = $1`,
    [merchant.accountId],
  );
  const stored = new Map(rows.map((row) => [String(row.transaction_id), { recurrenceId: String(row.recurrence_id), events: Number(row.events) }]));
  for (const attempt of attempts) {
    const expected = attempt.outcome === 'created' ? { recurrenceId: attempt.recurrenceId, events: 1 } : undefined;
    expect({ attempt, stored: stored.get(attempt.transactionId) }).toEqual({ attempt, stored: expected });
  }
  expect(stored.size).toBe(acknowledged.length);
  const published = () =>
    watcher.seen.filter((event) => event.envelope.type === 'recurrence.created' && event.envelope.tenant.account_id === merchant.accountId).map((event) => event.envelope.stream_id.split(':').pop());
  await watcher.waitFor(() => acknowledged.every((id) => published().includes(id)));
  const times = new Map<string | undefined, number>();
  for (const id of published()) times.set(id, (times.get(id) ?? 0) + 1);
  expect([...times].filter(([, count]) => count !== 1)).toEqual([]);
}

it('recurrence-service drains on SIGTERM: in-flight messages answered, its outbox flushed before it exits 0', async () => {
  const merchant = await newMerchant(system);
  const attempts = await terminateUnderLoad('recurrence-service', system.profile.recurrencesOps, merchant, async () => {
    // Flushed: nothing it committed waits in its outbox for the next start.
    expect(await outboxOf(merchant)).toBe(0);
  });
  await checkWrites(merchant, attempts);
}, 120_000);

it('the gateway drains on SIGTERM: requests it took are answered, later ones find the port closed', async () => {
  const merchant = await newMerchant(system);
  const attempts = await terminateUnderLoad('api-gateway', system.profile.gatewayOps, merchant, async () => undefined);
  await checkWrites(merchant, attempts);
}, 120_000);

async function waitUntil(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
