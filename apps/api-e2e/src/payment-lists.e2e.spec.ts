/** @shared-system */
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { freshCpf, Merchant, newMerchant } from './support/fixtures';
import { recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// The lists by period of the cash-in side: GET /v2/pix/charges and GET /v2/transactions/refunds, shaped as
// the recurrences' list (period required, page from 0, page_size at most 100), each
// answered from payments-service's own tables, so a write shows at once.

let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
});
type Item = Record<string, unknown> & { id: number };
const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const production = (method: string, path: string, key = merchant.production) => call(system.profile.gateway, method, path, { key });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const ids = (items: Item[]) => items.map((item) => item.id);
const withoutQrcode = ({ qrcode: _qrcode, ...rest }: Record<string, unknown>) => rest;
const period = (start: string, end: string) => `start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`;
const ALL_TIME = period('2000-01-01T00:00:00-03:00', '2100-01-01T00:00:00Z');
const CHARGES = '/v2/pix/charges';
const REFUNDS = '/v2/transactions/refunds';

let sequence = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;

async function createCharge(key = merchant.sandbox): Promise<Item> {
  const answer = await sandbox(
    'POST',
    '/v2/pix',
    { transaction_id: fresh('pix'), amount: 150.5, payer: { document_number: freshCpf(), name: 'Maria Silva' } },
    key,
  );
  expect(answer.status).toBe(201);
  return answer.body;
}

async function paidCharge(key = merchant.sandbox): Promise<Item> {
  const charge = await createCharge(key);
  const paid = await sandbox('POST', `/v2/sandbox/pix/${charge.id}/pay`, undefined, key);
  expect(paid.status).toBe(200);
  return paid.body;
}

async function refund(charge: Item, amount: number): Promise<Item> {
  const answer = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('ref'), amount });
  expect(answer.status).toBe(201);
  return answer.body;
}

const chargeNow = async (id: number): Promise<Record<string, unknown>> => withoutQrcode((await sandbox('GET', `/v2/pix?id=${id}`)).body);

describe('GET /v2/pix/charges and GET /v2/transactions/refunds', () => {
  // Oldest first: c1 expires, c2 is paid and refunded twice (r1 by the merchant, r2 by the service itself), then one day
  // on (the sandbox test clock) c3 stays PENDING, c4 is paid and refunded (r3).
  let c1: Item, c2: Item, c3: Item, c4: Item;
  let r1: Item, r2: Item, r3: Item;

  beforeAll(async () => {
    c1 = await createCharge();
    c2 = await paidCharge();
    r1 = await refund(c2, 10);
    const started = await sandbox('POST', `/v2/sandbox/transactions/${c2.id}/refund`, { amount: 5 });
    expect(started.status).toBe(201);
    r2 = started.body;
    expect((await sandbox('POST', '/v2/sandbox/clock/advance', { days: 1 })).status).toBe(200);
    await eventually(
      () => sandbox('GET', `/v2/pix?id=${c1.id}`),
      (answer) => answer.body.status === 'EXPIRED',
      WITHIN_SECONDS,
    );
    c3 = await createCharge();
    c4 = await paidCharge();
    r3 = await refund(c4, 150.5);
  });

  describe('the Pix charges', () => {
    it('lists every charge of the period newest first, as GET /v2/pix shows each, without qrcode, 100 to a page from page 0', async () => {
      const answer = await sandbox('GET', `${CHARGES}?${ALL_TIME}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        pagination: { current_page: 0, page_size: 100, total_pages: 1, total_items: 4 },
        charges: [await chargeNow(c4.id), await chargeNow(c3.id), await chargeNow(c2.id), await chargeNow(c1.id)],
      });
      expect(answer.body.charges.map((c: Item) => c.status)).toEqual(['PAID', 'PENDING', 'PAID', 'EXPIRED']);
      for (const charge of answer.body.charges) expect(charge).not.toHaveProperty('qrcode');
    });

    it.each([
      ['PAID', () => [c4, c2]],
      ['PENDING', () => [c3]],
      ['EXPIRED', () => [c1]],
    ])('filters by status %s, counting only those', async (status, expected) => {
      const answer = await sandbox('GET', `${CHARGES}?${ALL_TIME}&status=${status}`);
      expect(answer.status).toBe(200);
      expect(ids(answer.body.charges)).toEqual(ids(expected()));
      expect(answer.body.pagination).toEqual({ current_page: 0, page_size: 100, total_pages: 1, total_items: expected().length });
    });

    it('pages 4 charges by 3: three on page 0, one on page 1, none beyond; a page_size above 100 is 100', async () => {
      const first = await sandbox('GET', `${CHARGES}?${ALL_TIME}&page_size=3`);
      expect(first.body.pagination).toEqual({ current_page: 0, page_size: 3, total_pages: 2, total_items: 4 });
      expect(ids(first.body.charges)).toEqual(ids([c4, c3, c2]));
      const second = await sandbox('GET', `${CHARGES}?${ALL_TIME}&page_size=3&page=1`);
      expect(ids(second.body.charges)).toEqual(ids([c1]));
      const beyond = await sandbox('GET', `${CHARGES}?${ALL_TIME}&page_size=3&page=7`);
      expect(beyond).toEqual({ status: 200, body: { pagination: { current_page: 7, page_size: 3, total_pages: 2, total_items: 4 }, charges: [] } });
      const capped = await sandbox('GET', `${CHARGES}?${ALL_TIME}&page_size=500`);
      expect(capped.body.pagination).toEqual({ current_page: 0, page_size: 100, total_pages: 1, total_items: 4 });
    });

    it('takes the charges created from start (included) to end (excluded)', async () => {
      const c3At = c3.created_at as string;
      expect(ids((await sandbox('GET', `${CHARGES}?${period(c3At, '2100-01-01T00:00:00Z')}`)).body.charges)).toEqual(ids([c4, c3]));
      expect(ids((await sandbox('GET', `${CHARGES}?${period('2000-01-01T00:00:00Z', c3At)}`)).body.charges)).toEqual(ids([c2, c1]));
      // The same instant written in Brasília time.
      const local = new Date(Date.parse(c3At) - 3 * 3600_000).toISOString().replace('Z', '-03:00');
      expect(ids((await sandbox('GET', `${CHARGES}?${period(local, '2100-01-01T00:00:00Z')}`)).body.charges)).toEqual(ids([c4, c3]));
      const before = await sandbox('GET', `${CHARGES}?${period('2000-01-01T00:00:00Z', '2001-01-01T00:00:00Z')}`);
      expect(before.body).toEqual({ pagination: { current_page: 0, page_size: 100, total_pages: 0, total_items: 0 }, charges: [] });
    });

    it('shows a charge at once: created, then paid', async () => {
      const created = await createCharge();
      const listed = await sandbox('GET', `${CHARGES}?${ALL_TIME}&page_size=1`);
      expect(listed.body.charges).toEqual([withoutQrcode(created)]);
      const paid = await sandbox('POST', `/v2/sandbox/pix/${created.id}/pay`);
      expect((await sandbox('GET', `${CHARGES}?${ALL_TIME}&status=PAID&page_size=1`)).body.charges).toEqual([paid.body]);
    });

    it("lists journey 3 activation payments, PAID, right after the payer's authorization", async () => {
      const tenant = await newMerchant(system);
      const recurrences = recurrenceClient(system, tenant, 'sandbox');
      const transactionId = `ativ-${Date.now().toString(36)}-${++sequence}`;
      const recurrence = await recurrences.create(recurrenceBody({ transaction_id: transactionId, activation_amount: 7.5 }));
      expect(recurrence.status).toBe(201);
      // payments-service learns of the activation from Kafka: it is announced, not yet a charge.
      expect((await sandbox('GET', `${CHARGES}?${ALL_TIME}`, undefined, tenant.sandbox)).body.charges).toEqual([]);
      expect((await recurrences.authorize(recurrence.body.recurrence_id)).status).toBe(200);
      const listed = await sandbox('GET', `${CHARGES}?${ALL_TIME}`, undefined, tenant.sandbox);
      expect(listed.body.charges).toEqual([expect.objectContaining({ transaction_id: `${transactionId}-ativacao`, status: 'PAID', amount: 7.5 })]);
    });

    it("shows nothing of another account's, nor of the other environment's", async () => {
      const mine = new Set(ids([c1, c2, c3, c4]));
      const others = await sandbox('GET', `${CHARGES}?${ALL_TIME}`, undefined, other.sandbox);
      expect(others.status).toBe(200);
      expect(others.body.charges.some((c: Item) => mine.has(c.id))).toBe(false);
      expect((await production('GET', `${CHARGES}?${ALL_TIME}`)).body).toEqual({
        pagination: { current_page: 0, page_size: 100, total_pages: 0, total_items: 0 },
        charges: [],
      });
    });

    it.each([
      ['', 'start and end are required'],
      [`end=${encodeURIComponent('2100-01-01T00:00:00Z')}`, 'start and end are required'],
      [`start=${encodeURIComponent('2000-01-01T00:00:00Z')}&end=`, 'start and end are required'],
      [period('2026-03-01', '2100-01-01T00:00:00Z'), 'query.start must be an ISO 8601 date-time with a time zone'],
      [period('2000-01-01T00:00:00Z', '2026-03-01T00:00:00'), 'query.end must be an ISO 8601 date-time with a time zone'],
      [`${ALL_TIME}&page=-1`, 'query.page must be an integer of at least 0'],
      [`${ALL_TIME}&page_size=0`, 'query.page_size must be an integer of at least 1'],
      [`${ALL_TIME}&status=REFUNDED`, 'query.status must be one of the following values: PENDING, PAID, EXPIRED'],
      [`${ALL_TIME}&status=paid`, 'query.status must be one of the following values: PENDING, PAID, EXPIRED'],
      [
        'start=yesterday&page=x&status=DONE',
        'start and end are required. query.status must be one of the following values: PENDING, PAID, EXPIRED. ' +
          'query.start must be an ISO 8601 date-time with a time zone. query.page must be an integer of at least 0',
      ],
    ])('refuses ?%s: 400 "%s"', async (query, message) => {
      expect(await sandbox('GET', `${CHARGES}?${query}`)).toEqual(invalid(message));
    });
  });

  describe('the refunds', () => {
    it('lists every refund of the period newest first, in the refund shape with created_at and refunded_at, whatever their status', async () => {
      const answer = await sandbox('GET', `${REFUNDS}?${ALL_TIME}`);
      expect(answer.status).toBe(200);
      expect(answer.body.pagination).toEqual({ current_page: 0, page_size: 100, total_pages: 1, total_items: 3 });
      expect(ids(answer.body.refunds)).toEqual(ids([r3, r2, r1]));
      const [third, second, first] = answer.body.refunds;
      expect(third).toEqual({ ...r3, status: expect.stringMatching(/^(PROCESSING|REFUNDED)$/), refunded_at: third.refunded_at });
      expect(second).toMatchObject({ refund_id: null, amount: 5, transaction: { id: c2.id, transaction_id: c2.transaction_id }, created_at: r2.created_at });
      expect(first).toMatchObject({
        refund_id: r1.refund_id,
        amount: 10,
        transaction: { id: c2.id, transaction_id: c2.transaction_id },
        created_at: r1.created_at,
      });
    });

    it('shows the settlement: REFUNDED with refunded_at once the bank settles', async () => {
      const settled = await sandbox('POST', `/v2/sandbox/refunds/${r1.id}/settle`);
      expect(settled.body).toMatchObject({ status: 'REFUNDED', refunded_at: expect.any(String) });
      const listed = (await sandbox('GET', `${REFUNDS}?${ALL_TIME}`)).body.refunds.find((r: Item) => r.id === r1.id);
      expect(listed).toEqual(settled.body);
    });

    it('shows a refund at once', async () => {
      const charge = await paidCharge();
      const asked = await refund(charge, 1);
      expect((await sandbox('GET', `${REFUNDS}?${ALL_TIME}&page_size=1`)).body.refunds).toEqual([asked]);
    });

    it('pages, caps page_size at 100 and answers an empty page past the last', async () => {
      const first = await sandbox('GET', `${REFUNDS}?${period('2000-01-01T00:00:00Z', r3.created_at as string)}&page_size=1`);
      expect(first.body).toEqual({
        pagination: { current_page: 0, page_size: 1, total_pages: 2, total_items: 2 },
        refunds: [expect.objectContaining({ id: r2.id })],
      });
      const second = await sandbox('GET', `${REFUNDS}?${period('2000-01-01T00:00:00Z', r3.created_at as string)}&page_size=1&page=1`);
      expect(ids(second.body.refunds)).toEqual([r1.id]);
      const beyond = await sandbox('GET', `${REFUNDS}?${ALL_TIME}&page=1`);
      expect(beyond.body.refunds).toEqual([]);
      expect((await sandbox('GET', `${REFUNDS}?${ALL_TIME}&page_size=101`)).body.pagination.page_size).toBe(100);
    });

    it('takes the refunds asked for from start (included) to end (excluded)', async () => {
      const r3At = r3.created_at as string;
      const fromR3 = ids((await sandbox('GET', `${REFUNDS}?${period(r3At, '2100-01-01T00:00:00Z')}`)).body.refunds);
      expect(fromR3).toContain(r3.id);
      expect(fromR3).not.toContain(r2.id);
      expect(ids((await sandbox('GET', `${REFUNDS}?${period('2000-01-01T00:00:00Z', r3At)}`)).body.refunds)).toEqual(ids([r2, r1]));
    });

    it("shows nothing of another account's, nor of the other environment's", async () => {
      const others = await sandbox('GET', `${REFUNDS}?${ALL_TIME}`, undefined, other.sandbox);
      expect(others.body).toEqual({ pagination: { current_page: 0, page_size: 100, total_pages: 0, total_items: 0 }, refunds: [] });
      expect((await production('GET', `${REFUNDS}?${ALL_TIME}`)).body.refunds).toEqual([]);
    });

    it.each([
      ['', 'start and end are required'],
      [`start=${encodeURIComponent('2000-01-01T00:00:00Z')}`, 'start and end are required'],
      [period('2000-01-01T00:00:00Z', 'tomorrow'), 'query.end must be an ISO 8601 date-time with a time zone'],
      [period('2026-02-30T00:00:00Z', '2100-01-01T00:00:00Z'), 'query.start must be an ISO 8601 date-time with a time zone'],
      [`${ALL_TIME}&page=1.5`, 'query.page must be an integer of at least 0'],
      [`${ALL_TIME}&page_size=-3`, 'query.page_size must be an integer of at least 1'],
    ])('refuses ?%s: 400 "%s"', async (query, message) => {
      expect(await sandbox('GET', `${REFUNDS}?${query}`)).toEqual(invalid(message));
    });
  });
});
