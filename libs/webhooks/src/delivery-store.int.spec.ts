import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventEnvelope } from '@pixauto/contracts';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { recurrence, RecurrenceEvent, RecurrenceState, withRecords } from '@pixauto/recurrences';
import { monthlyRecurrence } from '@pixauto/recurrences/testing';
import { DeliveryStore } from './delivery-store';
import { takeEvents } from './event-intake';
import {
  WebhookDeliveries1763800000800,
  WebhookEndpoints1763800001000,
  WebhookRecordsInEvents1763800000991,
  WebhookSecretsPerEnvironment1763800000990,
} from './webhooks.migration';

// The dispatcher's intake and table on the real PostgreSQL: idempotent, each event read from the record it carries,
// claims that follow each tenant's clock, and attempts that record what they did.

let dataSource: DataSource;
let store: DeliveryStore;
beforeAll(async () => {
  dataSource = await createTestDataSource('webhooks', [
    TenantClocksTable1763800000060,
    WebhookDeliveries1763800000800,
    WebhookSecretsPerEnvironment1763800000990,
    WebhookRecordsInEvents1763800000991,
    WebhookEndpoints1763800001000,
  ]);
  store = new DeliveryStore(dataSource);
});
afterAll(() => dropTestDataSource(dataSource));

const NOW = new Date('2027-01-10T12:00:00.000Z');
const LEASE = new Date(NOW.getTime() + 60_000);

function recurrenceEvents(accountId: string) {
  const recurrenceId = `r-${randomUUID()}`;
  const stream = `recurrence:${accountId}:sandbox:${recurrenceId}`;
  // Recorded as recurrence-service records them: each with its record (one append each).
  let state: RecurrenceState = recurrence.initialState;
  const created = new Map<string, Date>();
  const at = (version: number, type: string, data: unknown): EventEnvelope => {
    const event = { type, data } as RecurrenceEvent;
    const [withRecord] = withRecords(state, [event], created, NOW);
    state = recurrence.evolve(state, event);
    if (type === 'charge.created') created.set((data as { charge_id: string }).charge_id, NOW);
    return {
      event_id: randomUUID(),
      type,
      stream_id: stream,
      version,
      tenant: { account_id: accountId, environment: 'sandbox' },
      occurred_at: NOW.toISOString(),
      data: withRecord.data,
    };
  };
  const charge = {
    charge_id: `c-${recurrenceId}`,
    recurrence_id: recurrenceId,
    type: 'cycle',
    webhook: 'https://shop.example.com/hooks',
    cycle: 1,
    nominal_date: '2027-01-31',
    due_date: '2027-01-31',
    amount_centavos: 4990,
    txid: 't',
    debtor: { document_number: '52998224725', name: 'Maria', email: null },
  };
  return {
    recurrenceId,
    created: at(1, 'recurrence.created', { ...monthlyRecurrence, recurrence_id: recurrenceId }),
    approved: at(2, 'recurrence.approved', { journey: 'JOURNEY_2', approved_on: '2027-01-10' }),
    charged: at(3, 'charge.created', charge),
    replaced: at(4, 'recurrence.updated', { webhook: 'https://other.example.com/h' }),
    restored: at(5, 'recurrence.updated', { webhook: 'https://shop.example.com/hooks' }),
  };
}

const take = (events: EventEnvelope[]) => dataSource.transaction((db) => takeEvents(db, events, LEASE)).then((taken) => taken.deliveries);
const countFor = async (accountId: string) =>
  Number((await dataSource.query('SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = $1', [accountId]))[0].n);

describe('takeEvents', () => {
  it('makes one delivery per event, leased to the caller, and nothing more when the batch comes again', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    const first = await take([e.created, e.approved]);
    // The dispatcher orders each group itself; the store returns them in no particular order.
    expect(first.map((d) => [d.sequence, d.leased_until.toISOString()]).sort()).toEqual([
      [1, LEASE.toISOString()],
      [2, LEASE.toISOString()],
    ]);
    expect(await take([e.created, e.approved])).toEqual([]);
    expect(await countFor(account)).toBe(2);
  });

  it('reads each event on its own: a charge event taken before the recurrence events it follows is delivered at once', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    expect((await take([e.charged])).map((d) => d.sequence)).toEqual([3]);
    const [charge] = await dataSource.query('SELECT payload FROM webhook_deliveries WHERE account_id = $1 AND sequence = 3', [account]);
    expect(JSON.parse(charge.payload).data).toEqual({
      charge_id: `c-${e.recurrenceId}`,
      recurrence_id: e.recurrenceId,
      type: 'cycle',
      amount: 49.9,
      due_date: '2027-01-31',
      status: 'SCHEDULED',
      retries: 0,
      created_at: NOW.toISOString(),
      paid_at: null,
    });
    expect((await take([e.created, e.approved])).map((d) => d.sequence).sort()).toEqual([1, 2]);
  });

  it('cancels the pending deliveries to a replaced webhook, and sends the change to the new one', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    await take([e.created, e.approved, e.charged]);
    const created = await take([e.replaced]);
    expect(created.map((d) => d.url)).toEqual(['https://other.example.com/h']);
    const rows = await dataSource.query('SELECT sequence, status, last_error FROM webhook_deliveries WHERE account_id = $1 ORDER BY sequence', [account]);
    expect(rows).toEqual([
      { sequence: 1, status: 'cancelled', last_error: 'the webhook was replaced' },
      { sequence: 2, status: 'cancelled', last_error: 'the webhook was replaced' },
      { sequence: 3, status: 'cancelled', last_error: 'the webhook was replaced' },
      { sequence: 4, status: 'pending', last_error: null },
    ]);
  });

  it('ends only deliveries of events before the change: an older change redelivered later ends none after it', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    await take([e.created, e.approved, e.charged, e.replaced, e.restored]);
    await take([e.replaced]);
    const rows = await dataSource.query('SELECT sequence, url, status FROM webhook_deliveries WHERE account_id = $1 AND sequence >= 4 ORDER BY sequence', [
      account,
    ]);
    expect(rows).toEqual([
      { sequence: 4, url: 'https://other.example.com/h', status: 'cancelled' },
      { sequence: 5, url: 'https://shop.example.com/hooks', status: 'pending' },
    ]);
  });
});

describe('DeliveryStore', () => {
  it('claims what is due in its tenant clock, once, and takes back what a crashed holder leased', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    const [delivery] = await take([e.created]);
    // Leased to its creator: nobody else claims it until the lease ends.
    expect((await store.claimDue(NOW, LEASE, 100)).filter((d) => d.account_id === account)).toEqual([]);
    const afterLease = new Date(LEASE.getTime() + 1);
    const reclaimed = (await store.claimDue(afterLease, new Date(afterLease.getTime() + 60_000), 100)).filter((d) => d.account_id === account);
    expect(reclaimed.map((d) => d.id)).toEqual([delivery.id]);

    // A failed attempt waits 5 minutes of the tenant's clock; advancing the clock makes it due.
    await store.recordAttempt(
      {
        id: delivery.id,
        manual: false,
        attemptedAt: afterLease,
        url: delivery.url,
        statusCode: 500,
        error: 'HTTP 500',
        latencyMs: 3,
        responseBody: 'no',
        change: { status: 'retry', error: 'HTTP 500', delayMs: 300_000 },
      },
      afterLease,
    );
    const soon = new Date(afterLease.getTime() + 1000);
    expect((await store.claimDue(soon, new Date(soon.getTime() + 60_000), 100)).filter((d) => d.account_id === account)).toEqual([]);
    await dataSource.query('INSERT INTO tenant_clocks (account_id, offset_ms, version) VALUES ($1, $2, 1)', [account, 600_000]);
    expect(
      (await store.claimDue(soon, new Date(soon.getTime() + 60_000), 100)).filter((d) => d.account_id === account).map((d) => d.scheduled_attempts),
    ).toEqual([1]);
    const detail = await store.get({ accountId: account, environment: 'sandbox' }, delivery.id);
    expect(detail).toMatchObject({
      status: 'pending',
      attempt_count: 1,
      last_error: 'HTTP 500',
      attempts: [{ number: 1, status_code: 500, response_body: 'no', trigger: 'schedule' }],
    });
  });

  it('410 Gone fails the delivery and every later one to that URL for that resource', async () => {
    const account = `acc-${randomUUID()}`;
    const e = recurrenceEvents(account);
    const [delivery] = await take([e.created]);
    await store.recordAttempt(
      {
        id: delivery.id,
        manual: false,
        attemptedAt: NOW,
        url: delivery.url,
        statusCode: 410,
        error: 'gone',
        latencyMs: 1,
        responseBody: null,
        change: { status: 'gone', error: 'HTTP 410 Gone: deliveries of this resource to this URL stopped' },
      },
      NOW,
    );
    expect(await take([e.approved])).toEqual([]);
    const rows = await dataSource.query('SELECT sequence, status, attempt_count FROM webhook_deliveries WHERE account_id = $1 ORDER BY sequence', [account]);
    expect(rows).toEqual([
      { sequence: 1, status: 'failed', attempt_count: 1 },
      { sequence: 2, status: 'failed', attempt_count: 0 },
    ]);
  });

  it("reads and retries only the tenant's own deliveries", async () => {
    const account = `acc-${randomUUID()}`;
    const [delivery] = await take([recurrenceEvents(account).created]);
    expect(await store.get({ accountId: 'someone-else', environment: 'sandbox' }, delivery.id)).toBeUndefined();
    expect(await store.get({ accountId: account, environment: 'production' }, delivery.id)).toBeUndefined();
    expect(await store.requestRetry({ accountId: 'someone-else', environment: 'sandbox' }, delivery.id)).toBeUndefined();
    const listed = await store.list({ accountId: account, environment: 'sandbox' }, { page: 0, page_size: 10 });
    expect(listed.pagination).toEqual({ current_page: 0, page_size: 10, total_pages: 1, total_items: 1 });
  });

  it('asks a retry of every delivery the filters match, batch after batch, of the tenant only', async () => {
    const account = `acc-${randomUUID()}`;
    const tenant = { accountId: account, environment: 'sandbox' as const };
    const streams = Array.from({ length: 5 }, () => recurrenceEvents(account));
    await take(streams.flatMap((e) => [e.created, e.approved]));
    const flagged = async () =>
      (await dataSource.query('SELECT event_type FROM webhook_deliveries WHERE account_id = $1 AND retry_requested ORDER BY event_type', [account])).map(
        (row: { event_type: string }) => row.event_type,
      );
    // 5 matches in batches of 2: 2, 2, then 1.
    expect(await store.requestRetryMatching(tenant, { event_type: 'recurrence.approved' }, 2)).toBe(5);
    expect(await flagged()).toEqual(Array(5).fill('recurrence.approved'));
    // A batch that ends exactly on the last match, and a repeat: each counted, each still one flag.
    expect(await store.requestRetryMatching(tenant, { resource_id: streams[0].recurrenceId }, 2)).toBe(2);
    expect(await store.requestRetryMatching(tenant, { resource_id: streams[0].recurrenceId }, 2)).toBe(2);
    expect(await flagged()).toHaveLength(6);
    expect(await store.requestRetryMatching({ accountId: account, environment: 'production' }, {}, 2)).toBe(0);
    expect(await store.requestRetryMatching(tenant, { status: 'failed' }, 2)).toBe(0);
    expect(await flagged()).toHaveLength(6);
  });
});
