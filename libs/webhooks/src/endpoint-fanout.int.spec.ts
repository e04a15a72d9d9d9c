import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventEnvelope, Tenant } from '@pixauto/contracts';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { recurrence, RecurrenceEvent, RecurrenceState, withRecords } from '@pixauto/recurrences';
import { monthlyRecurrence } from '@pixauto/recurrences/testing';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { SecretBox } from '@pixauto/secrets';
import { DeliveryStore } from './delivery-store';
import { endpointDeliveryIdOf } from './endpoint-fanout';
import { NewEndpoint, WebhookEndpointStore } from './endpoint-store';
import { takeEvents } from './event-intake';
import { deliveryIdOf } from './notifications';
import {
  WebhookDeliveries1763800000800,
  WebhookEndpoints1763800001000,
  WebhookRecordsInEvents1763800000991,
  WebhookSecretsPerEnvironment1763800000990,
} from './webhooks.migration';

// The fan-out to webhook endpoints on the real PostgreSQL: made in the batch's transaction, once per event and
// endpoint however often the batch comes, to enabled endpoints of the event's own tenant that take its type; a
// disabled or deleted endpoint's pending deliveries end, and its secrets are sealed in the row.

let dataSource: DataSource;
let endpoints: WebhookEndpointStore;
let store: DeliveryStore;
const box = new SecretBox([['test', randomBytes(32)]]);
beforeAll(async () => {
  dataSource = await createTestDataSource('webhook_endpoints', [
    TenantClocksTable1763800000060,
    WebhookDeliveries1763800000800,
    WebhookSecretsPerEnvironment1763800000990,
    WebhookRecordsInEvents1763800000991,
    WebhookEndpoints1763800001000,
  ]);
  endpoints = new WebhookEndpointStore(dataSource, box);
  store = new DeliveryStore(dataSource);
});
afterAll(() => dropTestDataSource(dataSource));

const NOW = new Date('2027-01-10T12:00:00.000Z');
const LEASE = new Date(NOW.getTime() + 60_000);

/** A recurrence's created and approved events, as recurrence-service records them; no webhook of its own unless given. */
function recurrenceEvents(tenant: Tenant, webhook: string | null = null) {
  const recurrenceId = `r-${randomUUID()}`;
  let state: RecurrenceState = recurrence.initialState;
  const at = (version: number, type: string, data: unknown): EventEnvelope => {
    const event = { type, data } as RecurrenceEvent;
    const [withRecord] = withRecords(state, [event], new Map(), NOW);
    state = recurrence.evolve(state, event);
    return {
      event_id: randomUUID(),
      type,
      stream_id: `recurrence:${tenant.accountId}:${tenant.environment}:${recurrenceId}`,
      version,
      tenant: { account_id: tenant.accountId, environment: tenant.environment },
      occurred_at: NOW.toISOString(),
      data: withRecord.data,
    };
  };
  return [
    at(1, 'recurrence.created', { ...monthlyRecurrence, recurrence_id: recurrenceId, webhook }),
    at(2, 'recurrence.approved', { journey: 'JOURNEY_2', approved_on: '2027-01-10' }),
  ];
}

const take = (events: EventEnvelope[]) => dataSource.transaction((db) => takeEvents(db, events, LEASE)).then((taken) => taken.deliveries);
const endpoint = (url: string, change: Partial<NewEndpoint> = {}): NewEndpoint => ({ url, event_types: [], description: null, enabled: true, ...change });
const rowsOf = (accountId: string) =>
  dataSource.query(
    `SELECT id, event_type, url, endpoint_id, status, last_error, group_id FROM webhook_deliveries WHERE account_id = $1 ORDER BY url, event_type`,
    [accountId],
  );

describe('the fan-out to webhook endpoints', () => {
  it('makes one delivery per event and endpoint, beside the resource webhook, and none more when the batch comes again', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'sandbox' };
    const all = (await endpoints.create(tenant, endpoint('https://a.example.com/all'), NOW))!;
    const approvedOnly = (await endpoints.create(tenant, endpoint('https://b.example.com/approved', { event_types: ['recurrence.approved'] }), NOW))!;
    await endpoints.create(tenant, endpoint('https://c.example.com/off', { enabled: false }), NOW);
    await endpoints.create({ ...tenant, environment: 'production' }, endpoint('https://d.example.com/production'), NOW);
    await endpoints.create({ accountId: `acc-${randomUUID()}`, environment: 'sandbox' }, endpoint('https://e.example.com/other-account'), NOW);
    const events = recurrenceEvents(tenant, 'https://shop.example.com/own');

    const first = await take(events);
    expect(first).toHaveLength(5);
    expect(await take(events)).toEqual([]);
    expect(await take([events[1], events[0]])).toEqual([]);

    const rows = await rowsOf(tenant.accountId);
    expect(rows.map((r: { url: string; event_type: string; endpoint_id: string | null }) => [r.url, r.event_type, r.endpoint_id])).toEqual([
      ['https://a.example.com/all', 'recurrence.approved', all.endpoint_id],
      ['https://a.example.com/all', 'recurrence.created', all.endpoint_id],
      ['https://b.example.com/approved', 'recurrence.approved', approvedOnly.endpoint_id],
      ['https://shop.example.com/own', 'recurrence.approved', null],
      ['https://shop.example.com/own', 'recurrence.created', null],
    ]);
    expect(rows[0].id).toBe(endpointDeliveryIdOf(deliveryIdOf(events[1].event_id), all.endpoint_id));
    expect(rows[0].group_id).toBe(`endpoint:${all.endpoint_id}:recurrence:${events[0].stream_id.split(':')[3]}`);
    // The same body for every URL.
    const payloads = await dataSource.query('SELECT DISTINCT payload FROM webhook_deliveries WHERE account_id = $1 AND event_type = $2', [
      tenant.accountId,
      'recurrence.approved',
    ]);
    expect(payloads).toHaveLength(1);
  });

  it('signs with the endpoint secret, sealed in the row, and both during a rotation overlap', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'sandbox' };
    const created = (await endpoints.create(tenant, endpoint('https://a.example.com/hook'), NOW))!;
    const [{ secret }] = await dataSource.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [created.endpoint_id]);
    expect(secret).not.toContain(created.secret.slice(6));
    expect(box.open(secret)).toBe(created.secret);
    expect((await store.endpointSigning(created.endpoint_id, NOW))?.secrets.map((s) => box.open(s))).toEqual([created.secret]);

    const rotated = (await endpoints.rotate(tenant, created.endpoint_id, 2, NOW, NOW))!;
    expect(rotated.previous_secret_valid_until).toBe(new Date(NOW.getTime() + 2 * 3_600_000).toISOString());
    expect((await store.endpointSigning(created.endpoint_id, NOW))?.secrets.map((s) => box.open(s))).toEqual([rotated.secret, created.secret]);
    const later = new Date(NOW.getTime() + 2 * 3_600_000 + 1);
    expect((await store.endpointSigning(created.endpoint_id, later))?.secrets.map((s) => box.open(s))).toEqual([rotated.secret]);
    expect(await endpoints.secret(tenant, created.endpoint_id, later)).toEqual({ secret: rotated.secret, previous_secret_valid_until: null });
  });

  it('cancels the pending deliveries of an endpoint disabled or deleted, and makes none to it afterwards', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'sandbox' };
    const disabled = (await endpoints.create(tenant, endpoint('https://a.example.com/disabled'), NOW))!;
    const deleted = (await endpoints.create(tenant, endpoint('https://b.example.com/deleted'), NOW))!;
    await take(recurrenceEvents(tenant));
    await endpoints.update(tenant, disabled.endpoint_id, { enabled: false }, NOW);
    expect(await endpoints.delete(tenant, deleted.endpoint_id)).toBe(true);
    expect(await endpoints.delete(tenant, deleted.endpoint_id)).toBe(false);
    expect(await endpoints.delete(tenant, 'not-a-uuid')).toBe(false);
    expect(await endpoints.rotate(tenant, 'not-a-uuid', 24, NOW, NOW)).toBeUndefined();
    expect(await endpoints.update(tenant, 'not-a-uuid', { enabled: false }, NOW)).toBeUndefined();
    expect((await rowsOf(tenant.accountId)).map((r: { status: string; last_error: string }) => [r.status, r.last_error])).toEqual([
      ['cancelled', 'the webhook endpoint was disabled'],
      ['cancelled', 'the webhook endpoint was disabled'],
      ['cancelled', 'the webhook endpoint was deleted'],
      ['cancelled', 'the webhook endpoint was deleted'],
    ]);
    expect(await take(recurrenceEvents(tenant))).toEqual([]);
  });

  it('refuses the endpoint past the limit of its tenant, even when asked at once', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'production' };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => endpoints.create(tenant, endpoint(`https://a.example.com/${i}`), NOW)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(16);
    expect(await endpoints.list(tenant)).toHaveLength(16);
    expect(await endpoints.list({ ...tenant, environment: 'sandbox' })).toEqual([]);
  });
});
