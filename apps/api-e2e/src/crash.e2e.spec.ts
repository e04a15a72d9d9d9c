import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { cpf, freshCpf, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { recurrenceBody, recurrenceClient, storedFor } from './support/recurrences';
import { RunningSystem, startSystem } from './support/running-system';

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
  try {
    await eventually(
      () => acknowledged.size,
      (n) => n >= 200,
      { timeoutMs: 60_000, what: 'acknowledged writes' },
    );
    const before = acknowledged.size;
    await system.crash('limits-service');
    await new Promise((resolve) => setTimeout(resolve, 500)); // writes keep coming while it is down
    await system.restart('limits-service');
    await eventually(
      () => acknowledged.size,
      (n) => n >= before + 200,
      { timeoutMs: 60_000, what: 'acknowledged writes' },
    );
  } finally {
    flowing = false; // whatever happened: a failed expectation fails the test, the writers never outlive it
    await Promise.all(writers);
  }

  expect(refused).toBeGreaterThan(0); // the crash really happened under load

  // Every acknowledged write is readable, with the value that was acknowledged.
  for (const [document, centavos] of acknowledged) {
    const read = await call(system.profile.gateway, 'GET', `/v2/limits?document_number=${document}&type=cashout`, { key: merchant.production });
    expect({ document, status: read.status, amount: read.body.amount }).toEqual({ document, status: 200, amount: centavos / 100 });
  }

  // Every acknowledged write's event reached Kafka.
  const publishedDocuments = () =>
    new Set(
      watcher.seen.filter((event) => event.envelope.tenant.account_id === merchant.accountId).map((event) => String(event.envelope.data.document_number)),
    );
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
    (
      await queryService(system.profile.databasePrefix, 'limits', `SELECT count(*)::int AS n FROM outbox WHERE payload->'tenant'->>'account_id' = $1`, [
        merchant.accountId,
      ])
    )[0].n;
  await eventually(pending, (n) => n === 0, { timeoutMs: 30_000, intervalMs: 200, what: "the merchant's outbox rows" });
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
  try {
    await eventually(
      () => acknowledged.size,
      (n) => n >= 40,
      { timeoutMs: 60_000, what: 'acknowledged writes' },
    );
    const before = acknowledged.size;
    await system.crash('recurrence-service');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await system.restart('recurrence-service');
    await eventually(
      () => acknowledged.size,
      (n) => n >= before + 40,
      { timeoutMs: 60_000, what: 'acknowledged writes' },
    );
  } finally {
    flowing = false;
    await Promise.all(writers);
  }
  expect(failed.length).toBeGreaterThan(0); // the crash really happened under load

  // Every acknowledged create is readable, once.
  for (const [id, transactionId] of acknowledged) {
    expect({ id, status: (await recurrences.get(id)).status }).toEqual({ id, status: 200 });
    expect(await storedFor(system, merchant.accountId, transactionId)).toMatchObject({ rows: 1, events: 1 });
  }
  // Each created event reached Kafka (a consumer may see one twice; its effects are idempotent).
  const published = () =>
    new Set(recurrencesWatcher.seen.filter((e) => e.envelope.type === 'recurrence.created').map((e) => e.envelope.stream_id.split(':').pop()));
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

it('payments-service: cash-in charges and payouts survive a kill -9: each acknowledged one readable, at the bank once and paid once; a failed request repeated ends with one', async () => {
  const merchant = await newMerchant(system);
  const sandbox = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: merchant.sandbox, json });
  const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);
  const bank = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'bank_simulator', sql, params);
  const kinds = {
    charge: {
      path: '/v2/pix',
      body: (transaction_id: string) => ({ transaction_id, amount: 10.5, payer: { document_number: freshCpf(), name: 'Maria Silva' } }),
    },
    payout: {
      path: '/v2/payout/pix',
      body: (transaction_id: string) => ({ transaction_id, amount: 7.25, name: 'Maria Silva', document_number: freshCpf(), pix_key: 'maria@example.com' }),
    },
  } as const;
  type Kind = keyof typeof kinds;
  const acknowledged: Record<Kind, Map<number, string>> = { charge: new Map(), payout: new Map() }; // id → transaction_id
  const failed: { kind: Kind; body: Record<string, unknown> }[] = [];
  let flowing = true;
  let sequence = 0;

  const writer = (kind: Kind) => async () => {
    while (flowing) {
      const body = kinds[kind].body(`crash-${kind}-${process.pid}-${++sequence}`);
      const answer = await sandbox('POST', kinds[kind].path, body).catch(() => undefined);
      if (answer?.status === 201) {
        acknowledged[kind].set(answer.body.id, body.transaction_id);
      } else {
        failed.push({ kind, body });
        await new Promise((resolve) => setTimeout(resolve, 100)); // backing off while the service is down
      }
    }
  };

  const writers = [...Array.from({ length: WRITERS / 2 }, writer('charge')), ...Array.from({ length: WRITERS / 2 }, writer('payout'))];
  const total = () => acknowledged.charge.size + acknowledged.payout.size;
  try {
    await eventually(
      () => ({ charges: acknowledged.charge.size, payouts: acknowledged.payout.size }),
      (n) => n.charges >= 20 && n.payouts >= 20,
      { timeoutMs: 60_000, what: 'acknowledged writes' },
    );
    const before = total();
    await system.crash('payments-service');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await system.restart('payments-service');
    await eventually(total, (n) => n >= before + 40, { timeoutMs: 60_000, what: 'acknowledged writes' });
  } finally {
    flowing = false;
    await Promise.all(writers);
  }
  expect(failed.length).toBeGreaterThan(0); // the crash really happened under load

  // Every acknowledged cash-in charge is readable, recorded once, and the bank holds exactly one charge (cob) for it.
  for (const [id, transactionId] of acknowledged.charge) {
    expect(await sandbox('GET', `/v2/pix?transaction_id=${transactionId}`)).toMatchObject({ status: 200, body: { id, status: 'PENDING' } });
    const rows = await payments('SELECT txid FROM pix_charges WHERE transaction_id = $1 AND account_id = $2', [transactionId, merchant.accountId]);
    expect(rows).toHaveLength(1);
    expect(await bank('SELECT count(*)::int AS n FROM charges WHERE txid = $1', [rows[0].txid])).toEqual([{ n: 1 }]);
  }
  // Every acknowledged payout is recorded once, handed to the bank once (its idEnvio), and paid: the sender resumed
  // after the restart, and a payout it had sent before the crash was not sent again as a second one.
  for (const transactionId of acknowledged.payout.values()) {
    expect(await payments('SELECT count(*)::int AS n FROM payouts WHERE transaction_id = $1 AND account_id = $2', [transactionId, merchant.accountId])).toEqual(
      [{ n: 1 }],
    );
  }
  const paid = async () =>
    (await payments('SELECT id, status FROM payouts WHERE account_id = $1', [merchant.accountId])).filter(
      (row) => acknowledged.payout.has(Number(row.id)) && row.status === 1,
    ).length;
  await eventually(paid, (n) => n === acknowledged.payout.size, {
    timeoutMs: 60_000,
    intervalMs: 500,
    what: `acknowledged payouts paid, of ${acknowledged.payout.size}`,
  });
  const idEnvios = [...acknowledged.payout.keys()].map((id) => `PIXAUTOS${String(id).padStart(12, '0')}`);
  const atBank = await bank('SELECT id_envio, status FROM payouts WHERE id_envio = ANY($1)', [idEnvios]);
  expect(atBank).toHaveLength(idEnvios.length);
  expect(atBank.every((row) => row.status === 'REALIZADO')).toBe(true);

  // A request the crash failed, repeated with its transaction_id, ends with exactly one of its kind: created now, or
  // found to exist (the first attempt committed before the crash cut its answer).
  const sample = failed.filter((_, i) => i % Math.ceil(failed.length / 30) === 0);
  for (const { kind, body } of sample) {
    const again = await sandbox('POST', kinds[kind].path, body);
    expect({ kind, status: [201, 400].includes(again.status) }).toEqual({ kind, status: true });
    if (again.status === 400) expect(again.body.message).toBe('body.transaction_id already exists');
    const table = kind === 'charge' ? 'pix_charges' : 'payouts';
    expect(
      await payments(`SELECT count(*)::int AS n FROM ${table} WHERE transaction_id = $1 AND account_id = $2`, [body.transaction_id, merchant.accountId]),
    ).toEqual([{ n: 1 }]);
  }
}, 240_000);
