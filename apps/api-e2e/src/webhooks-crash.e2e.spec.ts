import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@pixauto/testing';
import { Merchant } from './support/fixtures';
import { openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, startSystem } from './support/running-system';
import { WebhookReceiver } from './support/webhook-receiver';

// kill -9 the webhook-dispatcher three times while 1,000 events flow: every event reaches its endpoint, always
// under one webhook-id, and only deliveries in flight at a kill may arrive twice.

const EVENTS = 1000;
const WRITERS = 8;

let system: RunningSystem;
let receiver: WebhookReceiver;
let merchant: Merchant;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
  system = await startSystem();
  merchant = await openAccount(system);
});
afterAll(async () => {
  await system?.stop();
  await receiver?.stop();
});

it('delivers every event across three kill -9s of the dispatcher, repeating only what was in flight', async () => {
  const recurrences = recurrenceClient(system, merchant, 'sandbox');
  const created: string[] = [];
  let next = 0;
  const writer = async () => {
    while (next < EVENTS) {
      const n = next++;
      const answer = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', `crash-${n}`) }));
      expect(answer.status).toBe(201);
      created.push(answer.body.recurrence_id);
    }
  };
  const writers = Promise.all(Array.from({ length: WRITERS }, writer));
  try {
    for (let kill = 1; kill <= 3; kill++) {
      await eventually(
        () => created.length,
        (n) => n >= (kill * EVENTS) / 4,
        { timeoutMs: 60_000, what: `recurrences created, of ${EVENTS}` },
      );
      await system.crash('webhook-dispatcher');
      await sleep(300); // events keep coming while it is down
      await system.restart('webhook-dispatcher');
    }
  } catch (error) {
    next = EVENTS; // the writers stop after their request in flight: a failed test never leaves them running
    throw error;
  } finally {
    await writers;
  }

  const ids = () =>
    new Map(receiver.received.filter((r) => r.path.startsWith('/ok/crash-')).map((r) => [r.json.data.recurrence_id as string, r.headers['webhook-id']]));
  const undelivered = () => {
    const delivered = ids();
    return created.filter((id) => !delivered.has(id));
  };
  await eventually(undelivered, (missing) => missing.length === 0, { timeoutMs: 120_000, intervalMs: 200, what: 'recurrences whose webhook never arrived' });

  const delivered = ids();
  expect([...delivered.keys()].sort()).toEqual([...created].sort());
  // One webhook-id per event, however many times it arrived.
  const idsPerRecurrence = new Map<string, Set<string>>();
  for (const r of receiver.received.filter((x) => x.path.startsWith('/ok/crash-'))) {
    const set = idsPerRecurrence.get(r.json.data.recurrence_id) ?? new Set();
    set.add(r.headers['webhook-id']);
    idsPerRecurrence.set(r.json.data.recurrence_id, set);
  }
  expect([...idsPerRecurrence.values()].every((set) => set.size === 1)).toBe(true);
  const arrivals = new Map<string, number>();
  for (const r of receiver.received) arrivals.set(r.headers['webhook-id'], (arrivals.get(r.headers['webhook-id']) ?? 0) + 1);
  const repeated = [...arrivals.values()].filter((count) => count > 1).length;
  console.log(`webhooks crash test: ${EVENTS} events, ${receiver.received.length} requests received, ${repeated} webhook-ids arrived more than once`);
  // At most the dispatcher's in-flight requests at each of the three kills (8 per endpoint; every endpoint here is one host).
  expect(repeated).toBeLessThanOrEqual(3 * 8);
});
