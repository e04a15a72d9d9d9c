/** @shared-system */
import { addDays, nextBusinessDay } from '@pixauto/pix';
import { eventually } from '@pixauto/testing';
import { queryService } from './support/database';
import { freshAlphanumericCnpj, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { call } from './support/http';
import { brasiliaDay, brCodeFields, emvFields } from './support/recurrences';
import { RunningSystem, sharedSystem } from './support/running-system';
import { WebhookReceiver } from './support/webhook-receiver';

// Due-date Pix charges through the gateway (docs/api/due-date-charges.md, docs/decisions/due-date-charges.md): create,
// get, list, change and cancel at /v2/cobv, the dynamic BR Code whose location serves the amount of the day, the
// sandbox payer paying on a day the test clock chose (discount, fine, interest), expiry after the last payable day,
// the webhooks of paid, expired and cancelled, and the payer's cash-in limit. One system; each account's test clock is
// its own, so the cases that move time have accounts of their own.

let system: RunningSystem;
let merchant: Merchant;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const on = (m: Merchant) => (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: m.sandbox, json });
const sandbox = (method: string, path: string, json?: unknown) => on(merchant)(method, path, json);
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);

let sequence = 0;
const freshTransactionId = () => `cobv-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
/** A business day at least `days` ahead of the real today (a new account's test clock starts there). */
const businessDayAhead = (days: number) => nextBusinessDay(brasiliaDay(days));

/** R$ 100.00 due on `due`: R$ 5.00 off up to five days before it, then R$ 2.00 of fine and R$ 0.10 a calendar day after it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body, asserted field by field
const chargeBody = (due: string, extra: Record<string, unknown> = {}): Record<string, any> => ({
  transaction_id: freshTransactionId(),
  amount: 100,
  due_date: due,
  days_valid_after_due: 10,
  payer: { document_number: freshCpf(), name: 'Maria Silva' },
  fine: { modality: 'FIXED_AMOUNT', value: 2 },
  interest: { modality: 'AMOUNT_PER_CALENDAR_DAY', value: 0.1 },
  discount: { modality: 'FIXED_AMOUNT_UNTIL_DATE', fixed_dates: [{ date: addDays(due, -5), value: 5 }] },
  ...extra,
});

async function created(body: Record<string, unknown>, post = sandbox) {
  const answer = await post('POST', '/v2/cobv', body);
  expect(answer.status).toBe(201);
  return answer.body;
}

const owed = (date: string, o: Partial<Record<'abatement' | 'discount' | 'fine' | 'interest', number>>, final: number) => ({
  date,
  original: 100,
  abatement: 0,
  discount: 0,
  fine: 0,
  interest: 0,
  ...o,
  final,
});

/** The payload at the charge's location, as the payer's bank reads it on `dpp` (an unsecured JWS from the simulator). */
async function payloadOf(pixCopyPaste: string, dpp?: string) {
  const location = emvFields(brCodeFields(pixCopyPaste).get('26') as string).get('25') as string;
  const response = await fetch(`http://127.0.0.1:${system.profile.bank}${location.slice(location.indexOf('/'))}${dpp ? `?DPP=${dpp}` : ''}`);
  const text = await response.text();
  return { status: response.status, payload: response.status === 200 ? JSON.parse(Buffer.from(text.split('.')[1], 'base64url').toString()) : text };
}

describe('POST, GET and PATCH /v2/cobv', () => {
  it('creates a charge with every rule, whose dynamic BR Code serves the amount of the day, and reads it back by either identifier', async () => {
    const due = businessDayAhead(12);
    const body = chargeBody(due, {
      payer: {
        document_number: freshAlphanumericCnpj(),
        name: 'Loja Alfa Ltda',
        email: 'financeiro@alfa.example',
        city: 'Campinas',
        state: 'SP',
        postal_code: '13010000',
      },
      abatement: { modality: 'PERCENTAGE', value: 10 },
      webhook: receiver.url('ok', 'created'),
      description: 'Mensalidade',
    });
    const charge = await created(body);
    expect(charge).toEqual({
      id: expect.any(Number),
      transaction_id: body.transaction_id,
      status: 'PENDING',
      provider: 'PROVIDER_A',
      amount: 100,
      due_date: due,
      days_valid_after_due: 10,
      last_payable_day: nextBusinessDay(addDays(due, 10)),
      payer: { ...body.payer, street: null },
      fine: body.fine,
      interest: body.interest,
      discount: body.discount,
      abatement: body.abatement,
      description: 'Mensalidade',
      webhook: body.webhook,
      pix_copy_paste: expect.stringMatching(/^000201/),
      qrcode: expect.stringMatching(/^data:image\/png;base64,/),
      // Ten per cent off (the abatement), then R$ 5.00 off for paying five or more days early.
      amount_due: { ...owed(brasiliaDay(), { abatement: 10, discount: 5 }, 85), date: brasiliaDay() },
      amount_paid: null,
      revision: 0,
      created_at: expect.any(String),
      updated_at: charge.created_at,
      paid_at: null,
    });
    expect((await payloadOf(charge.pix_copy_paste)).payload.valor).toEqual({ original: '100.00', abatimento: '10.00', desconto: '5.00', final: '85.00' });
    expect((await payloadOf(charge.pix_copy_paste, addDays(due, 3))).payload.valor).toEqual({
      original: '100.00',
      abatimento: '10.00',
      multa: '2.00',
      juros: '0.30',
      final: '92.30',
    });
    const { qrcode: _image, ...withoutImage } = charge;
    for (const query of [`id=${charge.id}`, `transaction_id=${body.transaction_id}`])
      expect(await sandbox('GET', `/v2/cobv?${query}`)).toEqual({ status: 200, body: { ...withoutImage, qrcode: charge.qrcode } });
    expect(await sandbox('POST', '/v2/cobv', { ...body, amount: 50 })).toEqual(invalid('body.transaction_id already exists'));
    expect(await sandbox('GET', '/v2/cobv?id=999999999')).toEqual({ status: 404, body: { message: 'due-date charge not found' } });
    expect((await call(system.profile.gateway, 'GET', `/v2/cobv?id=${charge.id}`, { key: merchant.production })).status).toBe(404);
  });

  it('refuses terms that do not hold together, every problem at once, and leaves nothing behind', async () => {
    const due = businessDayAhead(5);
    const cases: [Record<string, unknown>, string][] = [
      [
        chargeBody(brasiliaDay(-1), {
          abatement: { modality: 'FIXED_AMOUNT', value: 100 },
          discount: { modality: 'PERCENTAGE_UNTIL_DATE', fixed_dates: [{ date: due, value: 5 }] },
        }),
        "body.due_date must be today or later. body.abatement.value must be less than the charge's amount. body.discount.fixed_dates[].date must not be after body.due_date",
      ],
      [
        chargeBody(due, { interest: { modality: 'PERCENT_PER_WEEK', value: 1 } }),
        expect.stringContaining('body.interest.modality must be one of the following values: AMOUNT_PER_CALENDAR_DAY') as unknown as string,
      ],
      [
        chargeBody(due, { discount: { modality: 'AMOUNT_PER_CALENDAR_DAY_EARLY', fixed_dates: [{ date: due, value: 1 }] } }),
        'body.discount.fixed_dates is not taken by this modality: send value',
      ],
      [chargeBody(due, { fine: { modality: 'PERCENTAGE', value: 2.005 } }), 'body.fine.value must be a positive number with at most 2 decimal places'],
      [chargeBody(due, { payer: { document_number: '12ABC34501DE36', name: 'X' } }), 'body.payer.document_number is invalid'],
      [{ ...chargeBody(due), due_date: '2026-02-30' }, 'body.due_date is not a valid date'],
    ];
    for (const [body, message] of cases) {
      const answer = await sandbox('POST', '/v2/cobv', body);
      expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 400, message });
      const [rows] = await payments('SELECT count(*)::int AS n FROM due_date_charges WHERE transaction_id = $1', [body.transaction_id]);
      const [events] = await payments(`SELECT count(*)::int AS n FROM events WHERE stream_id LIKE '%:' || $1`, [body.transaction_id]);
      expect([rows.n, events.n]).toEqual([0, 0]);
    }
  });

  it('changes a PENDING charge (the same code serving the new terms), cancels it once, and then refuses to change or pay it', async () => {
    const due = businessDayAhead(8);
    const charge = await created(chargeBody(due, { webhook: receiver.url('ok', 'cancelled') }));
    const changed = await sandbox('PATCH', `/v2/cobv/${charge.id}`, { amount: 120, discount: null, description: 'Novo valor' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ amount: 120, discount: null, description: 'Novo valor', revision: 1, pix_copy_paste: charge.pix_copy_paste });
    expect(changed.body.amount_due).toEqual({ ...owed(brasiliaDay(), {}, 120), original: 120 });
    expect((await payloadOf(charge.pix_copy_paste)).payload.valor).toEqual({ original: '120.00', final: '120.00' });
    expect(await sandbox('PATCH', `/v2/cobv/${charge.id}`, { status: 'CANCELLED', amount: 1 })).toEqual(
      invalid('body.status cancels the charge: send it alone, without other changes'),
    );
    expect(await sandbox('PATCH', `/v2/cobv/${charge.id}`, {})).toEqual(invalid('the request changes nothing: send at least one field to change'));
    expect(await sandbox('PATCH', `/v2/cobv/${charge.id}`, { due_date: brasiliaDay(-1) })).toEqual(invalid('body.due_date must be today or later'));

    const cancelled = await sandbox('PATCH', `/v2/cobv/${charge.id}`, { status: 'CANCELLED' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', pix_copy_paste: null, amount_due: null });
    expect(await sandbox('PATCH', `/v2/cobv/${charge.id}`, { status: 'CANCELLED' })).toEqual({ status: 200, body: cancelled.body });
    expect(await sandbox('PATCH', `/v2/cobv/${charge.id}`, { amount: 1 })).toEqual(
      invalid('the due-date charge is CANCELLED: only a PENDING charge can be changed'),
    );
    expect(await sandbox('POST', `/v2/sandbox/cobv/${charge.id}/pay`)).toEqual(invalid('the due-date charge is CANCELLED: only a PENDING charge can be paid'));
    const [hook] = await receiver.waitFor('/cancelled');
    expect(hook.json).toMatchObject({ type: 'due_date_charge.cancelled', environment: 'sandbox', data: { id: charge.id, status: 'CANCELLED' } });
    const types = await payments('SELECT type FROM events WHERE stream_id LIKE $1 ORDER BY version', [`%:${charge.transaction_id}`]);
    expect(types.map((r) => r.type)).toEqual(['due_date_charge.created', 'due_date_charge.changed', 'due_date_charge.cancelled']);
  });

  it('lists the charges of a period by status, one page at a time', async () => {
    const lister = await newMerchant(system);
    const start = new Date(Date.now() - 60_000).toISOString();
    const due = businessDayAhead(6);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await created(chargeBody(due), on(lister))).id);
    await on(lister)('PATCH', `/v2/cobv/${ids[0]}`, { status: 'CANCELLED' });
    const end = new Date(Date.now() + 60_000).toISOString();
    const list = (query: string) => on(lister)('GET', `/v2/cobv/charges?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}${query}`);
    const page0 = await list('&page_size=2');
    expect(page0.body.pagination).toEqual({ current_page: 0, page_size: 2, total_pages: 2, total_items: 3 });
    expect(page0.body.charges.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page0.body.charges[0].qrcode).toBeUndefined();
    expect((await list('&page_size=2&page=1')).body.charges.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    expect((await list('&status=CANCELLED')).body.charges.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    expect((await list('&status=PENDING')).body.pagination.total_items).toBe(2);
    expect(await list('&status=LATE')).toEqual(invalid('query.status must be one of the following values: PENDING, PAID, EXPIRED, CANCELLED'));
  });
});

describe('the sandbox payer pays on the day the test clock chose', () => {
  it("pays early with the discount, late with the fine and interest, within the payer's cash-in limit, and the webhook hears of it", async () => {
    const late = await newMerchant(system);
    const due = businessDayAhead(10);
    const early = await created(chargeBody(due), on(late));
    const onTime = await created(chargeBody(due, { webhook: receiver.url('ok', 'paid') }), on(late));
    const limited = await created(chargeBody(due), on(late));
    expect((await on(late)('POST', `/v2/sandbox/cobv/${early.id}/pay`)).body).toMatchObject({
      status: 'PAID',
      amount_due: null,
      amount_paid: owed(brasiliaDay(), { discount: 5 }, 95),
      pix_copy_paste: null,
    });

    // Two calendar days past the due date: R$ 2.00 of fine and R$ 0.20 of interest.
    const payDay = addDays(due, 2);
    expect(
      (await on(late)('POST', '/v2/sandbox/clock/advance', { days: Math.round((Date.parse(payDay) - Date.parse(brasiliaDay())) / 86_400_000) })).status,
    ).toBe(200);
    expect((await on(late)('GET', `/v2/cobv?id=${onTime.id}`)).body.amount_due).toEqual(owed(payDay, { fine: 2, interest: 0.2 }, 102.2));
    expect(
      (await on(late)('POST', '/v2/limits', { document_number: limited.payer.document_number, type: 'cashin', mechanism: 'amount', amount: 102 })).status,
    ).toBe(200);
    expect(await on(late)('POST', `/v2/sandbox/cobv/${limited.id}/pay`)).toEqual({
      status: 400,
      body: { type: 'LimitExceededError', message: expect.stringContaining('102.20') },
    });
    expect((await on(late)('GET', `/v2/cobv?id=${limited.id}`)).body.status).toBe('PENDING');

    const paid = await on(late)('POST', `/v2/sandbox/cobv/${onTime.id}/pay`);
    expect(paid.body).toMatchObject({ status: 'PAID', amount_paid: owed(payDay, { fine: 2, interest: 0.2 }, 102.2), paid_at: expect.any(String) });
    expect(await on(late)('POST', `/v2/sandbox/cobv/${onTime.id}/pay`)).toEqual(invalid('the due-date charge is PAID: only a PENDING charge can be paid'));
    const [hook] = await receiver.waitFor('/paid');
    expect(hook.json).toMatchObject({ type: 'due_date_charge.paid', data: { id: onTime.id, status: 'PAID', amount_paid: { final: 102.2 } } });
    const [usage] = await payments('SELECT used FROM customer_limit_usage WHERE document_number = $1 AND day = $2', [onTime.payer.document_number, payDay]);
    expect(usage.used).toBe(1);
  });

  it('expires a charge unpaid after its last payable day, tells its webhook, and the payer can no longer pay it', async () => {
    const expiring = await newMerchant(system);
    const due = businessDayAhead(3);
    const charge = await created(chargeBody(due, { days_valid_after_due: 0, webhook: receiver.url('ok', 'expired') }), on(expiring));
    const last = charge.last_payable_day;
    expect(last).toBe(due);
    const days = Math.round((Date.parse(addDays(last, 1)) - Date.parse(brasiliaDay())) / 86_400_000);
    expect((await on(expiring)('POST', '/v2/sandbox/clock/advance', { days })).status).toBe(200);
    const expired = await eventually(
      () => on(expiring)('GET', `/v2/cobv?id=${charge.id}`),
      (answer) => answer.body.status === 'EXPIRED',
      { what: 'the charge EXPIRED by the sweep', timeoutMs: 20_000 },
    );
    expect(expired.body).toMatchObject({ pix_copy_paste: null, amount_due: null, amount_paid: null });
    expect(await on(expiring)('POST', `/v2/sandbox/cobv/${charge.id}/pay`)).toEqual(
      invalid('the due-date charge is EXPIRED: only a PENDING charge can be paid'),
    );
    const [hook] = await receiver.waitFor('/expired');
    expect(hook.json).toMatchObject({ type: 'due_date_charge.expired', data: { id: charge.id, status: 'EXPIRED' } });
  });
});
