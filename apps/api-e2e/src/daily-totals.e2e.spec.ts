/** @shared-system */
import { randomUUID } from 'node:crypto';
import { eventually } from '@pixauto/testing';
import { chargeClient } from './support/charges';
import { queryService } from './support/database';
import { freshCpf, Merchant } from './support/fixtures';
import { call } from './support/http';
import { openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// GET /v2/reports/daily-totals: the money moved per Brasília day, each kind summed by the service that owns it and
// composed by the gateway. Each test has an account of its own (its own sandbox clock).

let system: RunningSystem;

beforeAll(async () => {
  system = sharedSystem();
});
const REPORT = '/v2/reports/daily-totals';
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const zero = { count: 0, amount: 0 };
const KINDS = ['automatic_pix_charges_paid', 'pix_charges_paid', 'refunds', 'payouts'] as const;
const fresh = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function client(merchant: Merchant) {
  const sandbox = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: merchant.sandbox, json });
  return {
    sandbox,
    report: (query = '') => sandbox('GET', `${REPORT}${query}`),
    production: (query = '') => call(system.profile.gateway, 'GET', `${REPORT}${query}`, { key: merchant.production }),
    clock: async (): Promise<{ now: string; today: string }> => (await sandbox('GET', '/v2/sandbox/clock')).body,
    advanceHours: async (hours: number) => {
      if (hours > 0) expect((await sandbox('POST', '/v2/sandbox/clock/advance', { hours })).status).toBe(200);
    },
    paidPixCharge: async (amount: number): Promise<{ id: number; paid_at: string }> => {
      const created = await sandbox('POST', '/v2/pix', { transaction_id: fresh('pix'), amount, payer: { document_number: freshCpf(), name: 'Maria Souza' } });
      expect(created.status).toBe(201);
      const paid = await sandbox('POST', `/v2/sandbox/pix/${created.body.id}/pay`);
      expect(paid.status).toBe(200);
      return paid.body;
    },
    refund: async (id: number, amount: number): Promise<{ id: number }> => {
      const answer = await sandbox('POST', '/v2/transactions/refund', { id, refund_id: fresh('ref'), amount });
      expect(answer.status).toBe(201);
      return answer.body;
    },
    payout: async (amount: number): Promise<{ id: number }> => {
      const body = { transaction_id: fresh('pay'), amount, name: 'Maria Souza', document_number: freshCpf(), pix_key: 'maria@example.com' };
      const answer = await sandbox('POST', '/v2/payout/pix', body);
      expect(answer.status).toBe(201);
      return answer.body;
    },
  };
}

/** The Brasília hour of an instant (UTC-3, no summer time since 2019). */
const brasiliaHour = (iso: string): number => (new Date(iso).getUTCHours() + 21) % 24;

describe('GET /v2/reports/daily-totals', () => {
  it('refuses days it cannot read, a reversed period and one longer than 92 days; covers 92', async () => {
    const api = client(await openAccount(system));
    expect(await api.report('?start_day=2026-02-30')).toEqual(invalid('query.start_day must be a date, YYYY-MM-DD'));
    expect(await api.report('?end_day=today')).toEqual(invalid('query.end_day must be a date, YYYY-MM-DD'));
    expect(await api.report('?start_day=2026-11-10&end_day=2026-11-09')).toEqual(invalid('query.end_day must not be before query.start_day'));
    expect(await api.report('?start_day=2026-01-01&end_day=2026-04-03')).toEqual(
      invalid('a report covers at most 92 days: narrow query.start_day to query.end_day'),
    );
    const quarter = await api.report('?start_day=2026-01-01&end_day=2026-04-02');
    expect(quarter.status).toBe(200);
    expect(quarter.body.days).toHaveLength(92);
    expect((await call(system.profile.sandbox, 'GET', REPORT, {})).status).toBe(401);
  });

  it("defaults to the 30 days ending on the account's today, on the sandbox's test clock, with nothing moved as zeros", async () => {
    const api = client(await openAccount(system));
    await api.advanceHours(24 * 40);
    const { today } = await api.clock();
    const answer = await api.report();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ start_day: dayAfter(today, -29), end_day: today, rejected_payouts: 0, failed_webhook_deliveries: 0 });
    expect(answer.body.failed_charges).toEqual({ count: 0, latest: [] });
    expect(answer.body.days).toHaveLength(30);
    expect(answer.body.days[29]).toEqual({ day: today, automatic_pix_charges_paid: zero, pix_charges_paid: zero, refunds: zero, payouts: zero });
    expect(answer.body.totals).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, zero])));
  });

  it('counts each payment on its Brasília day (22:30 in Brasília is the next day in UTC), exact to the centavo, per kind, for its own tenant only', async () => {
    const merchant = await openAccount(system);
    const api = client(merchant);
    // The test clock to 22:xx in Brasília (01:xx UTC of the next day).
    await api.advanceHours((22 - brasiliaHour((await api.clock()).now) + 24) % 24);
    const late = await api.clock();
    expect(brasiliaHour(late.now)).toBe(22);
    const day = late.today;
    const next = dayAfter(day, 1);

    // Day `day`, 22:xx: two Pix charges paid (0.10 + 0.20 is 0.30, not a float's 0.30000000000000004), a refund of one,
    // another refund that failed, a payout, and one the bank rejected.
    const first = await api.paidPixCharge(0.1);
    await api.paidPixCharge(0.2);
    expect(first.paid_at.slice(0, 10)).toBe(next); // its UTC date is already the next day
    await api.refund(first.id, 0.05);
    const failedRefund = await api.refund(first.id, 0.01);
    // The sandbox bank has no way to refuse a refund later: the read model is told it failed, as the reconciler would.
    await queryService(system.profile.databasePrefix, 'payments', `UPDATE pix_refunds SET status = 'FAILED' WHERE id = $1`, [failedRefund.id]);
    await api.payout(12.34);
    const rejected = await api.payout(5);
    expect((await api.sandbox('POST', `/v2/sandbox/payouts/${rejected.id}/status`, { status: 3 })).status).toBe(200);

    // Two hours on, 00:xx of the next Brasília day: one more of each.
    await api.advanceHours(2);
    expect((await api.clock()).today).toBe(next);
    await api.paidPixCharge(1);
    await api.payout(2);

    // An Automatic Pix charge paid today, another failed (due in two days), a journey 3 activation paid, and a delivery
    // that failed yesterday.
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const charges = chargeClient(system, merchant);
    const chargeOf = async (amount: number): Promise<{ charge_id: string; recurrence_id: string; due_date: string }> => {
      const created = await recurrences.create(recurrenceBody({ amount, schedule: { start_date: dayAfter(next, 2), periodicity: 'MONTHLY' } }));
      expect(created.status).toBe(201);
      expect((await recurrences.authorize(created.body.recurrence_id)).body.status).toBe('APPROVED');
      const listed = await eventually(
        () => charges.list(created.body.recurrence_id),
        (answer) => answer.status === 200 && answer.body.charges.some((charge: { status: string }) => charge.status === 'SCHEDULED'),
        WITHIN_SECONDS,
      );
      return listed.body.charges.find((charge: { status: string }) => charge.status === 'SCHEDULED');
    };
    const paidCharge = await chargeOf(7.77);
    expect((await charges.pay(paidCharge.charge_id)).body.status).toBe('PAID');
    const failedCharge = await chargeOf(3);
    expect((await charges.fail(failedCharge.charge_id)).body.status).toBe('FAILED');
    // A journey 3 recurrence authorized: its activation payment counts once, among the Pix charges paid.
    const journey3 = await recurrences.create(recurrenceBody({ schedule: { start_date: dayAfter(next, 3), periodicity: 'MONTHLY' }, activation_amount: 0.5 }));
    expect(journey3.status).toBe(201);
    expect((await recurrences.authorize(journey3.body.recurrence_id)).body.status).toBe('APPROVED');
    await queryService(
      system.profile.databasePrefix,
      'webhook_dispatcher',
      `INSERT INTO webhook_deliveries (id, account_id, environment, event_type, resource_type, resource_id, group_id, sequence, url, payload, status, attempt_count, created_at)
       VALUES ($1, $2, 'sandbox', 'pix_charge.paid', 'pix_charge', '1', $1, 1, 'https://shop.example.com/pix', '{}', 'failed', 6, $3)`,
      [fresh('dlv'), merchant.accountId, late.now],
    );

    // Read right after the writes: the payouts' lookups and the activation deposit are followers', and still show them.
    const answer = await api.report();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ start_day: dayAfter(next, -29), end_day: next, rejected_payouts: 1, failed_webhook_deliveries: 1 });
    const byDay = new Map(answer.body.days.map((entry: { day: string }) => [entry.day, entry]));
    expect(byDay.get(day)).toEqual({
      day,
      automatic_pix_charges_paid: zero,
      pix_charges_paid: { count: 2, amount: 0.3 },
      refunds: { count: 1, amount: 0.05 },
      payouts: { count: 1, amount: 12.34 },
    });
    expect(byDay.get(next)).toEqual({
      day: next,
      automatic_pix_charges_paid: { count: 1, amount: 7.77 },
      pix_charges_paid: { count: 2, amount: 1.5 },
      refunds: zero,
      payouts: { count: 1, amount: 2 },
    });
    expect(answer.body.totals).toEqual({
      automatic_pix_charges_paid: { count: 1, amount: 7.77 },
      pix_charges_paid: { count: 4, amount: 1.8 },
      refunds: { count: 1, amount: 0.05 },
      payouts: { count: 2, amount: 14.34 },
    });
    // The failed charge falls due in two days: a period that reaches it lists it.
    expect(answer.body.failed_charges).toEqual({ count: 0, latest: [] });
    const ahead = await api.report(`?start_day=${day}&end_day=${dayAfter(next, 5)}`);
    expect(ahead.body.days).toHaveLength(7);
    expect(ahead.body.failed_charges).toEqual({
      count: 1,
      latest: [{ charge_id: failedCharge.charge_id, recurrence_id: failedCharge.recurrence_id, amount: 3, due_date: failedCharge.due_date }],
    });
    // Only the day asked: the 22:30 payments are on `day`, none on `next`.
    const one = await api.report(`?start_day=${day}&end_day=${day}`);
    expect(one.body.totals.pix_charges_paid).toEqual({ count: 2, amount: 0.3 });

    // Another account, and the same account's production, see none of it.
    const stranger = client(await openAccount(system));
    const theirs = await stranger.report(`?start_day=${day}&end_day=${dayAfter(next, 5)}`);
    expect(theirs.body).toMatchObject({ rejected_payouts: 0, failed_webhook_deliveries: 0, failed_charges: { count: 0, latest: [] } });
    expect(theirs.body.totals).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, zero])));
    const production = await api.production(`?start_day=${day}&end_day=${dayAfter(next, 5)}`);
    expect(production.status).toBe(200);
    expect(production.body.totals).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, zero])));
  });

  it('answers a read-only key', async () => {
    const merchant = await openAccount(system, {}, { read_only: true });
    const answer = await call(system.profile.sandbox, 'GET', REPORT, { key: merchant.sandbox });
    expect(answer.status).toBe(200);
    expect(answer.body.days).toHaveLength(30);
  });
});
