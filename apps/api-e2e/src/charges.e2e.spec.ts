/** @shared-system */
import { cycleDueDate } from '@pixauto/pix';
import { eventually } from '@pixauto/testing';
import { advanceTo, CHARGE_NOT_FOUND, chargeClient, ChargeClient, providerError } from './support/charges';
import { queryService } from './support/database';
import { nextRunOf } from './support/metrics';
import { Merchant } from './support/fixtures';
import { call } from './support/http';
import { TopicWatcher } from './support/kafka';
import {
  brasiliaDay,
  invalid,
  openAccount,
  RECURRENCE_NOT_FOUND,
  RECURRENCE_TOPIC,
  recurrenceBody,
  recurrenceClient,
  RecurrenceClient,
} from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// Cycle charges (docs/decisions/charges.md) and the sandbox test clock (docs/decisions/sandbox-clock.md),
// through the gateway, with the real scheduler, the bank simulator's settlement rules and Kafka.

let system: RunningSystem;
let watcher: TopicWatcher;

beforeAll(async () => {
  system = sharedSystem();
  watcher = new TopicWatcher(RECURRENCE_TOPIC);
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
});

/** A merchant of its own per test: each has its own sandbox clock. */
async function sandboxMerchant(): Promise<{ merchant: Merchant; recurrences: RecurrenceClient; charges: ChargeClient }> {
  const merchant = await openAccount(system);
  return { merchant, recurrences: recurrenceClient(system, merchant, 'sandbox'), charges: chargeClient(system, merchant) };
}

async function approvedRecurrence(recurrences: RecurrenceClient, overrides: Record<string, unknown> = {}) {
  const created = await recurrences.create(recurrenceBody(overrides));
  expect(created.status).toBe(201);
  expect((await recurrences.authorize(created.body.recurrence_id)).body.status).toBe('APPROVED');
  return created.body;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const chargesOf = (charges: ChargeClient, recurrenceId: string, count: number, accept: (list: any[]) => boolean = () => true) =>
  eventually(
    () => charges.list(recurrenceId),
    (answer) => answer.status === 200 && answer.body.charges.length === count && accept(answer.body.charges),
    WITHIN_SECONDS,
  ).then((answer) => answer.body.charges);

/** Until the charge scheduler has run once after now: the charges due now exist. */
const scheduled = () => nextRunOf(system.profile.recurrencesOps, 'ChargeScheduler');

const chargeEvents = (recurrenceId: string) =>
  watcher.seen.filter((e) => e.envelope.type.startsWith('charge.') && e.envelope.data.recurrence_id === recurrenceId).map((e) => e.envelope);

describe('the sandbox test clock', () => {
  it("starts at real time, advances by days and hours, and is the tenant's own", async () => {
    const { charges } = await sandboxMerchant();
    const start = await charges.clock();
    expect(start).toEqual({ status: 200, body: { now: expect.any(String), today: brasiliaDay(0) } });
    expect(Math.abs(Date.parse(start.body.now) - Date.now())).toBeLessThan(5_000);

    const advanced = await charges.advance({ days: 3, hours: 2 });
    expect(advanced).toEqual({ status: 200, body: { now: expect.any(String), today: expect.any(String) } });
    expect(Date.parse(advanced.body.now) - Date.parse(start.body.now)).toBeGreaterThanOrEqual((3 * 24 + 2) * 3_600_000);
    expect((await charges.clock()).body.today).toBe(advanced.body.today);

    const other = await sandboxMerchant();
    expect((await other.charges.clock()).body.today).toBe(brasiliaDay(0));
  });

  it('refuses bad advances with clear messages and moves nothing', async () => {
    const { charges } = await sandboxMerchant();
    expect(await charges.advance({})).toEqual(invalid('body must set `days` or `hours`'));
    expect(await charges.advance({ days: -1 })).toEqual(invalid('body.days must be a non-negative integer'));
    expect(await charges.advance({ days: 1.5, hours: 'x' })).toEqual(
      invalid('body.days must be a non-negative integer. body.hours must be a non-negative integer'),
    );
    expect(await charges.advance({ days: 3661 })).toEqual(invalid('the clock can advance at most 3660 days in one call'));
    expect(await charges.advance({ weeks: 1 })).toEqual(invalid('`weeks` is not a field of this endpoint'));
    expect((await charges.clock()).body.today).toBe(brasiliaDay(0));
  });

  it('does not exist on production: 404', async () => {
    const { merchant } = await sandboxMerchant();
    const production = chargeClient(system, merchant, 'production');
    expect((await production.clock()).status).toBe(404);
    expect((await production.advance({ days: 1 })).status).toBe(404);
  });

  it("drives the tenant's date rules: start_date validation, activation expiry and solicitation deadline", async () => {
    const { merchant, recurrences, charges } = await sandboxMerchant();
    await charges.advance({ days: 10 });
    expect(await recurrences.create(recurrenceBody({ schedule: { start_date: brasiliaDay(5), periodicity: 'MONTHLY' } }))).toEqual(
      invalid('body.schedule.start_date must be after today (Brasília time)'),
    );

    const journey3 = await recurrences.create(
      recurrenceBody({ schedule: { start_date: brasiliaDay(20), periodicity: 'MONTHLY' }, activation_amount: 10, activation_expires_in: 3600 }),
    );
    expect(journey3.status).toBe(201);
    const solicited = await recurrences.create(recurrenceBody({ schedule: { start_date: brasiliaDay(20), periodicity: 'MONTHLY' } }));
    const deadline = new Date(Date.parse((await charges.clock()).body.now) + 2 * 86_400_000).toISOString();
    const solicitation = await call(system.profile.sandbox, 'POST', '/v2/automatic-pix/solicitations', {
      key: merchant.sandbox,
      json: {
        recurrence_id: solicited.body.recurrence_id,
        expires_at: deadline,
        destination: { agency: '0001', account: '12345', document_number: '52998224725', ispb: '99999999' },
      },
    });
    expect(solicitation.status).toBe(201);

    await charges.advance({ days: 3 });
    await eventually(
      () => recurrences.get(journey3.body.recurrence_id),
      (a) => a.body.pix_copy_paste === null,
      WITHIN_SECONDS,
    );
    const [activation] = await chargesOf(charges, journey3.body.recurrence_id, 1);
    expect(activation).toMatchObject({ type: 'activation', status: 'EXPIRED', amount: 10 });
    await eventually(
      () => recurrences.get(solicited.body.recurrence_id),
      (a) => a.body.status === 'EXPIRED',
      WITHIN_SECONDS,
    );
  });
});

describe('a year of a monthly recurrence, unfolding by advancing the clock', () => {
  it('creates each cycle charge lead days before its due date, settles it on the due date, and lets a failed one be retried', async () => {
    const { recurrences, charges } = await sandboxMerchant();
    const schedule = { start_date: brasiliaDay(10), end_date: null as string | null, periodicity: 'MONTHLY' as const };
    const last = cycleDueDate(schedule, 12, false) ?? '';
    schedule.end_date = last;
    const recurrence = await approvedRecurrence(recurrences, {
      schedule,
      retry_policy: 'ALLOWS_3R_7D',
      business_day_adjust: true,
      charge_lead_days: 3,
      webhook: 'https://merchant.example.com/hooks/pix',
    });
    const id = recurrence.recurrence_id;
    // Cycle 1's creation day (start - 3) is a week away: nothing yet, once the scheduler has run.
    await scheduled();
    expect((await charges.list(id)).body).toEqual({ charges: [] });

    for (let cycle = 1; cycle <= 12; cycle++) {
      const due = cycleDueDate(schedule, cycle, true) ?? '';
      await advanceTo(charges, addDays(due, -3));
      const list = await chargesOf(charges, id, cycle);
      const charge = list[cycle - 1];
      expect(charge).toEqual({
        charge_id: expect.any(String),
        recurrence_id: id,
        type: 'cycle',
        amount: 49.9,
        due_date: due,
        status: 'SCHEDULED',
        retries: 0,
        created_at: expect.any(String),
        paid_at: null,
      });
      if (cycle === 3) {
        // The payer's bank refuses the debit; the merchant retries two days after the due date.
        expect((await charges.fail(charge.charge_id)).body).toMatchObject({ status: 'FAILED', retries: 0 });
        expect(await charges.retry(charge.charge_id, { date: due })).toEqual(providerError(/entre 1 e 7 dias|vencimento/));
        expect(await charges.retry(charge.charge_id, { date: addDays(due, 8) })).toEqual(providerError(/entre 1 e 7 dias/));
        const retried = await charges.retry(charge.charge_id, { date: addDays(due, 2) });
        expect(retried).toEqual({ status: 200, body: { ...charge, retries: 1 } });
        await advanceTo(charges, addDays(due, 2));
      } else {
        await advanceTo(charges, due);
      }
      const paid = await eventually(
        () => charges.get(charge.charge_id),
        (a) => a.body.status === 'PAID',
        WITHIN_SECONDS,
      );
      expect(paid.body).toMatchObject({ due_date: due, retries: cycle === 3 ? 1 : 0, paid_at: expect.any(String) });
    }

    // The schedule ends with cycle 12: a month later there is still no 13th.
    await charges.advance({ days: 40 });
    await scheduled();
    const all = (await charges.list(id)).body.charges;
    expect(all).toHaveLength(12);
    expect(all.map((c: { status: string }) => c.status)).toEqual(Array(12).fill('PAID'));
    expect(all.map((c: { due_date: string }) => c.due_date)).toEqual(Array.from({ length: 12 }, (_, i) => cycleDueDate(schedule, i + 1, true)));

    // Every change was an event on Kafka, with the URL in effect.
    await watcher.waitFor(() => chargeEvents(id).filter((e) => e.type === 'charge.paid').length === 12);
    const events = chargeEvents(id);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect([count('charge.created'), count('charge.paid'), count('charge.failed'), count('charge.retry_scheduled')]).toEqual([12, 12, 1, 1]);
    expect(events.every((e) => e.data.webhook === 'https://merchant.example.com/hooks/pix')).toBe(true);

    // Charge events travel with their recurrence's, keyed by its stream: one topic, the stream's order, after
    // recurrence.created (1) and recurrence.approved (2).
    const streamId = events[0].stream_id;
    const stream = watcher.seen.filter((e) => e.key === streamId);
    expect(stream.every((e) => e.envelope.stream_id === streamId)).toBe(true);
    expect(stream.map((e) => e.envelope.version)).toEqual(Array.from({ length: stream.length }, (_, i) => i + 1));
    expect(stream.slice(0, 2).map((e) => e.envelope.type)).toEqual(['recurrence.created', 'recurrence.approved']);
    // Each carries the charge once it applied: the last of each charge is what GET answers now.
    for (const charge of all) {
      const last = events.filter((e) => e.data.charge_id === charge.charge_id).pop();
      expect(last?.data.charge).toEqual(charge);
    }
  });
});

describe('charge creation', () => {
  it('creates the first charge at once when approval comes after its creation day; none before approval', async () => {
    const { recurrences, charges } = await sandboxMerchant();
    const created = await recurrences.create(recurrenceBody({ schedule: { start_date: brasiliaDay(2), periodicity: 'WEEKLY' } }));
    await scheduled();
    expect((await charges.list(created.body.recurrence_id)).body).toEqual({ charges: [] });
    await recurrences.authorize(created.body.recurrence_id);
    const [first] = await chargesOf(charges, created.body.recurrence_id, 1);
    expect(first).toMatchObject({ type: 'cycle', due_date: brasiliaDay(2), status: 'SCHEDULED' });
    expect(await charges.get(first.charge_id)).toEqual({ status: 200, body: first });
  });

  it('a cancelled recurrence keeps its issued charges and gets no new ones', async () => {
    const { recurrences, charges } = await sandboxMerchant();
    const r = await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(2), periodicity: 'WEEKLY' } });
    const [first] = await chargesOf(charges, r.recurrence_id, 1);
    expect((await recurrences.update(r.recurrence_id, { status: 'CANCELLED' })).body.status).toBe('CANCELLED');
    await charges.advance({ days: 30 });
    await eventually(
      () => charges.get(first.charge_id),
      (a) => a.body.status === 'PAID',
      WITHIN_SECONDS,
    );
    await scheduled();
    expect((await charges.list(r.recurrence_id)).body.charges).toHaveLength(1);
  });

  it('a big advance plays every cycle it passes: created and settled in order', async () => {
    const { recurrences, charges } = await sandboxMerchant();
    const r = await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(5), periodicity: 'WEEKLY' } });
    await charges.advance({ days: 40 });
    const list = await chargesOf(charges, r.recurrence_id, 6, (cs) => cs.every((c) => c.status === 'PAID'));
    expect(list.map((c: { due_date: string }) => c.due_date)).toEqual([0, 7, 14, 21, 28, 35].map((d) => brasiliaDay(5 + d)));
  });

  it('never doubles a cycle with two schedulers running', async () => {
    const { recurrences, charges, merchant } = await sandboxMerchant();
    const replica = { PORT: String(system.profile.recurrences + 500), BANK_CALLBACK_PORT: String(system.profile.recurrences + 501), DATABASE_POOL_SIZE: '10' };
    await system.startReplica('recurrence-service', replica, system.profile.recurrences + 500);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push((await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(10), periodicity: 'WEEKLY' } })).recurrence_id);
    // Both schedulers see all twenty become due at the same moment, several cycles each.
    await charges.advance({ days: 20 });
    for (const id of ids) await chargesOf(charges, id, 3);
    const rows = await queryService(
      system.profile.databasePrefix,
      'recurrence',
      `SELECT recurrence_id, cycle, count(*)::int AS n FROM charges WHERE account_id = $1 GROUP BY 1, 2 HAVING count(*) > 1`,
      [merchant.accountId],
    );
    expect(rows).toEqual([]);
    const created = await queryService(
      system.profile.databasePrefix,
      'recurrence',
      `SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND type = 'charge.created'`,
      [merchant.accountId],
    );
    expect(created[0].n).toBe(60);
  });
});

describe('charge operations and their messages', () => {
  let charges: ChargeClient;
  let recurrences: RecurrenceClient;
  let recurrenceId: string;
  let chargeId: string;

  beforeAll(async () => {
    ({ charges, recurrences } = await sandboxMerchant());
    const r = await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(4), periodicity: 'MONTHLY' }, retry_policy: 'ALLOWS_3R_7D' });
    recurrenceId = r.recurrence_id;
    [{ charge_id: chargeId }] = await chargesOf(charges, recurrenceId, 1);
  });

  it("answers 404 for an unknown charge or another account's, and for the charges of an unknown recurrence", async () => {
    expect(await charges.get('00000000-0000-0000-0000-000000000000')).toEqual(CHARGE_NOT_FOUND);
    const other = await sandboxMerchant();
    expect(await other.charges.get(chargeId)).toEqual(CHARGE_NOT_FOUND);
    expect(await other.charges.cancel(chargeId)).toEqual(CHARGE_NOT_FOUND);
    expect(await other.charges.retry(chargeId, { date: brasiliaDay(6) })).toEqual(CHARGE_NOT_FOUND);
    expect(await other.charges.list(recurrenceId)).toEqual(RECURRENCE_NOT_FOUND);
    expect(await chargeClient(system, (await sandboxMerchant()).merchant, 'production').get(chargeId)).toEqual(CHARGE_NOT_FOUND);
  });

  it("refuses bad bodies with the spec's messages and changes nothing", async () => {
    expect(await charges.cancel(chargeId, { status: 'PAID' })).toEqual(invalid('body.status must be one of the following values: CANCELLED'));
    expect(await charges.cancel(chargeId, {})).toEqual(invalid('body.status is a required field'));
    expect(await charges.reschedule(chargeId, {})).toEqual(invalid('date is required'));
    expect(await charges.retry(chargeId, {})).toEqual(invalid('date is required'));
    expect(await charges.reschedule(chargeId, { date: '2027/01/01' })).toEqual(invalid('date must be YYYY-MM-DD'));
    expect(await charges.reschedule(chargeId, { date: '2027-02-30' })).toEqual(invalid('date is not a valid date'));
    expect(await charges.reschedule(chargeId, { date: brasiliaDay(0) })).toEqual(invalid('date must be after today (Brasília time)'));
    expect(await charges.reschedule(chargeId, { date: brasiliaDay(1), when: 'now' })).toEqual(invalid('`when` is not a field of this endpoint'));
    expect((await charges.get(chargeId)).body).toMatchObject({ status: 'SCHEDULED', retries: 0, due_date: brasiliaDay(4) });
  });

  it('refuses a retry while the debit is pending: a ProviderError naming the rule', async () => {
    expect(await charges.retry(chargeId, { date: brasiliaDay(6) })).toEqual(providerError('Existe uma tentativa com status SOLICITADA ou AGENDADA.'));
  });

  it('reschedules a SCHEDULED charge before the next cycle, and cancels it', async () => {
    const moved = await charges.reschedule(chargeId, { date: brasiliaDay(6) });
    expect(moved).toEqual({ status: 200, body: expect.objectContaining({ charge_id: chargeId, due_date: brasiliaDay(6), status: 'SCHEDULED' }) });
    expect(await charges.reschedule(chargeId, { date: brasiliaDay(40) })).toEqual(
      invalid(expect.stringMatching(/^date must be before the next cycle's date/) as unknown as string),
    );
    expect((await charges.cancel(chargeId)).body).toMatchObject({ charge_id: chargeId, status: 'CANCELLED' });
    expect((await charges.cancel(chargeId)).body).toMatchObject({ status: 'CANCELLED' });
    await watcher.waitFor(() => chargeEvents(recurrenceId).some((e) => e.type === 'charge.cancelled'));
    expect(chargeEvents(recurrenceId).map((e) => e.type)).toEqual(['charge.created', 'charge.rescheduled', 'charge.cancelled']);
  });

  it('follows the retry rules of the settlement system: at most 3, each 1 to 7 days after the due date', async () => {
    const r = await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' }, retry_policy: 'ALLOWS_3R_7D' });
    const [charge] = await chargesOf(charges, r.recurrence_id, 1);
    const due = charge.due_date;
    expect((await charges.fail(charge.charge_id)).body.status).toBe('FAILED');
    for (let retry = 1; retry <= 3; retry++) {
      expect((await charges.retry(charge.charge_id, { date: addDays(due, retry) })).body).toMatchObject({ status: 'SCHEDULED', retries: retry });
      expect((await charges.fail(charge.charge_id)).body).toMatchObject({ status: 'FAILED', retries: retry });
    }
    expect(await charges.retry(charge.charge_id, { date: addDays(due, 5) })).toEqual(providerError(/3/));
    expect((await charges.get(charge.charge_id)).body).toMatchObject({ status: 'FAILED', retries: 3 });
  });

  it('refuses every retry of a NOT_ALLOWED recurrence', async () => {
    const r = await approvedRecurrence(recurrences, { schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' }, retry_policy: 'NOT_ALLOWED' });
    const [charge] = await chargesOf(charges, r.recurrence_id, 1);
    await charges.fail(charge.charge_id);
    expect(await charges.retry(charge.charge_id, { date: addDays(charge.due_date, 1) })).toEqual(
      providerError('A política configurada na recorrência não permite retentativa de cobrança.'),
    );
  });

  it('refuses to cancel or retry the activation charge, and lists it with the cycles', async () => {
    const created = await recurrences.create(recurrenceBody({ schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' }, activation_amount: 19.9 }));
    const activationId = created.body.activation.charge_id;
    await recurrences.authorize(created.body.recurrence_id);
    const list = await chargesOf(charges, created.body.recurrence_id, 2);
    expect(list[0]).toMatchObject({
      charge_id: activationId,
      type: 'activation',
      amount: 19.9,
      status: 'PAID',
      due_date: brasiliaDay(0),
      paid_at: expect.any(String),
    });
    expect(list[1]).toMatchObject({ type: 'cycle', status: 'SCHEDULED' });
    expect(await charges.cancel(activationId)).toEqual(
      invalid('an activation charge cannot be cancelled: it is an immediate Pix payment, not a scheduled debit'),
    );
    expect(await charges.retry(activationId, { date: brasiliaDay(2) })).toEqual(
      invalid('an activation charge cannot be retried: it is an immediate Pix payment, not a scheduled debit'),
    );
  });

  it('answers what a paid or an activation charge cannot do, and changes nothing', async () => {
    const { recurrences, charges } = await sandboxMerchant(); // its own: its clock moves below
    const created = await recurrences.create(recurrenceBody({ schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' }, activation_amount: 7 }));
    const activationId = created.body.activation.charge_id;
    await recurrences.authorize(created.body.recurrence_id);
    const [, cycle] = await chargesOf(charges, created.body.recurrence_id, 2);
    expect((await charges.pay(cycle.charge_id)).body).toMatchObject({ status: 'PAID' });
    const paid = await charges.get(cycle.charge_id);
    expect(await charges.cancel(cycle.charge_id)).toEqual(invalid('the charge is PAID and can no longer be cancelled'));
    expect(await charges.reschedule(cycle.charge_id, { date: brasiliaDay(5) })).toEqual(
      invalid('the charge is PAID: only a SCHEDULED charge can be rescheduled'),
    );
    expect(await charges.pay(cycle.charge_id)).toEqual(invalid('the charge is PAID: there is no pending debit attempt'));
    expect(await charges.fail(cycle.charge_id)).toEqual(invalid('the charge is PAID: there is no pending debit attempt'));
    expect(await charges.get(cycle.charge_id)).toEqual(paid);
    expect(await charges.reschedule(activationId, { date: brasiliaDay(2) })).toEqual(
      invalid('an activation charge cannot be rescheduled: it is an immediate Pix payment, not a scheduled debit'),
    );
    expect(await charges.pay(activationId)).toEqual(
      invalid('an activation charge is paid when the payer authorizes: use POST /v2/sandbox/recurrences/:recurrence_id/authorize'),
    );
    // The four events of what did happen, then the next one of the recurrence (cycle 2, created by a month on the
    // clock): an event the refusals had wrongly caused would have come before it, on the same stream.
    await charges.advance({ days: 30 });
    await watcher.waitFor(() => chargeEvents(created.body.recurrence_id).length >= 5);
    expect(chargeEvents(created.body.recurrence_id).map((e) => e.type)).toEqual([
      'charge.created',
      'charge.paid',
      'charge.created',
      'charge.paid',
      'charge.created',
    ]);
  });

  it('sends pending charges to the new webhook, while the activation keeps the one of its creation', async () => {
    const created = await recurrences.create(
      recurrenceBody({ schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' }, activation_amount: 5, webhook: 'https://merchant.example.com/first' }),
    );
    const id = created.body.recurrence_id;
    await recurrences.authorize(id);
    const [, cycle] = await chargesOf(charges, id, 2);
    await recurrences.update(id, { webhook: 'https://merchant.example.com/second' });
    await charges.pay(cycle.charge_id);
    await watcher.waitFor(() => chargeEvents(id).filter((e) => e.type === 'charge.paid').length === 2);
    const paid = chargeEvents(id).filter((e) => e.type === 'charge.paid');
    expect(paid.map((e) => [e.data.type, e.data.webhook])).toEqual([
      ['activation', 'https://merchant.example.com/first'],
      ['cycle', 'https://merchant.example.com/second'],
    ]);
  });
});

function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}
