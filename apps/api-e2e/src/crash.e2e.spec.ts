import { call } from './support/http';
import { cpf, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { recurrenceBody, recurrenceClient, storedFor } from './support/recurrences';
import { RunningSystem, startSystem } from './support/system';

// kill -9 the limits service while writes flow: after restart every acknowledged write is readable and its
// event reached Kafka. A consumer may see a duplicate (at-least-once); the effects are never duplicated.

const TOPIC = 'pixauto.limits.events.v1';
const RECURRENCES_TOPIC = 'pixauto.recurrences.events.v1';
const WRITERS = 8;

let system: RunningSystem;
let watcher: TopicWatcher;
let recurrencesWatcher: TopicWatcher;

beforeAll(async () => {
  system = await startSystem();
  watcher = new TopicWatcher(TOPIC);
  recurrencesWatcher = new TopicWatcher(RECURRENCES_TOPIC);
  await Promise.all([watcher.start(), recurrencesWatcher.start()]);
});
afterAll(async () => {
  await watcher?.stop();
  await recurrencesWatcher?.stop();
  await system?.stop();
});

it('loses no acknowledged write and duplicates no effect across a kill -9', async () => {
  const merchant = await newMerchant(system);
  const acknowledged = new Map<string, number>();
  let refused = 0;
  let next = Math.floor(Math.random() * 1e8);
  let flowing = true;

  const writer = async () => {
    while (flowing) {
      const document = cpf(++next);
      const centavos = 100 + (next % 100_000);
      try {
        const answer = await call(system.profile.gateway, 'POST', '/v2/limits', {
          key: merchant.production,
          json: { document_number: document, type: 'cashout', mechanism: 'amount', amount: centavos / 100 },
        });
        if (answer.status === 200) acknowledged.set(document, centavos);
        else refused++;
      } catch {
        refused++;
      }
    }
  };

  const writers = Array.from({ length: WRITERS }, writer);
  await waitUntil(() => acknowledged.size >= 200);
  const before = acknowledged.size;
  await system.crash('limits-service');
  await new Promise((resolve) => setTimeout(resolve, 500)); // writes keep coming while it is down
  await system.restart('limits-service');
  await waitUntil(() => acknowledged.size >= before + 200);
  flowing = false;
  await Promise.all(writers);

  expect(refused).toBeGreaterThan(0); // the crash really happened under load

  // Every acknowledged write is readable, with the value that was acknowledged.
  for (const [document, centavos] of acknowledged) {
    const read = await call(system.profile.gateway, 'GET', `/v2/limits?document_number=${document}&type=cashout`, { key: merchant.production });
    expect({ document, status: read.status, amount: read.body.amount }).toEqual({ document, status: 200, amount: centavos / 100 });
  }

  // Every acknowledged write's event reached Kafka.
  const publishedDocuments = () =>
    new Set(watcher.seen.filter((event) => event.envelope.tenant.account_id === merchant.accountId).map((event) => String(event.envelope.data.document_number)));
  await watcher.waitFor(() => [...acknowledged.keys()].every((document) => publishedDocuments().has(document)), 60_000);

  // Effects are not duplicated: one stored event per limit, whatever the consumer saw twice.
  const stored = await queryService(
    system.profile.databasePrefix,
    'limits',
    `SELECT count(*)::int AS events, count(DISTINCT stream_id)::int AS limits, max(version) AS max_version FROM events WHERE account_id = $1`,
    [merchant.accountId],
  );
  expect(stored[0].events).toBe(stored[0].limits);
  expect(stored[0].max_version).toBe(1);
  // And the outbox empties: nothing committed stays unpublished (the delete follows the broker's ack).
  const pending = async () =>
    (await queryService(system.profile.databasePrefix, 'limits', `SELECT count(*)::int AS n FROM outbox WHERE payload->'tenant'->>'account_id' = $1`, [merchant.accountId]))[0].n;
  const deadline = performance.now() + 30_000;
  while ((await pending()) !== 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await pending()).toBe(0);
});

it('recurrence-service: loses no acknowledged create across a kill -9, and a create the crash failed can be repeated without a second recurrence', async () => {
  const merchant = await newMerchant(system);
  const recurrences = recurrenceClient(system, merchant);
  const acknowledged = new Map<string, string>(); // recurrence_id → transaction_id
  const failed: Record<string, unknown>[] = [];
  let flowing = true;

  const writer = async () => {
    while (flowing) {
      const body = recurrenceBody();
      try {
        const answer = await recurrences.create(body);
        if (answer.status === 201) acknowledged.set(answer.body.recurrence_id, String(body.transaction_id));
        else failed.push(body);
      } catch {
        failed.push(body);
      }
      // While the service is down a writer waits a little, as a client backing off would.
      if (failed[failed.length - 1]?.transaction_id === body.transaction_id) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const writers = Array.from({ length: WRITERS }, writer);
  await waitUntil(() => acknowledged.size >= 40);
  const before = acknowledged.size;
  await system.crash('recurrence-service');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await system.restart('recurrence-service');
  await waitUntil(() => acknowledged.size >= before + 40);
  flowing = false;
  await Promise.all(writers);
  expect(failed.length).toBeGreaterThan(0); // the crash really happened under load

  // Every acknowledged create is readable, once.
  for (const [id, transactionId] of acknowledged) {
    expect({ id, status: (await recurrences.get(id)).status }).toEqual({ id, status: 200 });
    expect(await storedFor(system, merchant.accountId, transactionId)).toMatchObject({ rows: 1, events: 1 });
  }
  // Each created event reached Kafka (a consumer may see one twice; its effects are idempotent).
  const published = () => new Set(recurrencesWatcher.seen.filter((e) => e.envelope.type === 'recurrence.created').map((e) => e.envelope.stream_id.split(':').pop()));
  await recurrencesWatcher.waitFor(() => [...acknowledged.keys()].every((id) => published().has(id)), 60_000);

  // A create the crash failed, repeated with its transaction_id, ends with exactly one recurrence: created now, or
  // found to exist already (the first attempt committed before the crash cut its answer).
  const sample = failed.filter((_, i) => i % Math.ceil(failed.length / 40) === 0);
  for (const body of sample) {
    const again = await recurrences.create(body);
    expect([201, 400]).toContain(again.status);
    if (again.status === 400) expect(again.body.message).toBe('body.transaction_id already exists');
    expect(await storedFor(system, merchant.accountId, String(body.transaction_id))).toMatchObject({ rows: 1, events: 1 });
  }
}, 180_000);

async function waitUntil(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
