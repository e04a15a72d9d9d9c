/** @shared-system */
import { call } from './support/http';
import { admin, freshCpf, Merchant } from './support/fixtures';
import {
  brasiliaDay,
  brCodeFields,
  emvFields,
  eventsOf,
  freshTransactionId,
  invalid,
  markRecurrenceDatabase,
  openAccount,
  RECURRENCE_NOT_FOUND,
  recurrenceBody,
  recurrenceClient,
  RecurrenceClient,
  RECURRENCES,
  storedFor,
  writtenSince,
} from './support/recurrences';
import { RunningSystem, sharedSystem } from './support/running-system';

// Recurrences through the gateway: docs/api/recurrences.md and docs/decisions/recurrences.md
// (transaction_id per tenant).

let system: RunningSystem;
let merchant: Merchant;
let api: RecurrenceClient;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await openAccount(system);
  api = recurrenceClient(system, merchant);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const QRCODE = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;
const CHANGEABLE = '`debtor_name`, `start_date`, `status`, `webhook`, `business_day_adjust`, `charge_lead_days`';
const address = { street: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', zip_code: '01310100' };
const withDebtor = (fields: Record<string, unknown>) => recurrenceBody({ debtor: { document_number: freshCpf(), name: 'Maria Souza', ...fields } });
const withSchedule = (fields: Record<string, unknown>) => recurrenceBody({ schedule: { start_date: brasiliaDay(1), periodicity: 'MONTHLY', ...fields } });
const without = (field: string) => {
  const body = recurrenceBody();
  delete body[field];
  return body;
};

async function created(overrides: Record<string, unknown> = {}, client = api) {
  const answer = await client.create(recurrenceBody(overrides));
  expect(answer.status).toBe(201);
  return answer.body;
}

/**
 * A refused create answers exactly `message` and leaves nothing: no read-model row, event or outbox row for the
 * account (nor for its transaction_id), and that transaction_id can then be used.
 */
async function expectRefusedCreate(body: Record<string, unknown>, message: string, who: Merchant = merchant) {
  const mark = await markRecurrenceDatabase(system, who.accountId);
  expect(await recurrenceClient(system, who).create(body)).toEqual(invalid(message));
  expect(await writtenSince(system, who.accountId, mark)).toEqual({ rows: 0, events: 0, outbox: 0 });
  const transactionId = body.transaction_id;
  if (typeof transactionId === 'string' && transactionId.length > 0 && transactionId.length <= 35 && who === merchant) {
    expect(await storedFor(system, who.accountId, transactionId)).toEqual({ rows: 0, events: 0, outbox: 0 });
    expect((await api.create(recurrenceBody({ transaction_id: transactionId }))).status).toBe(201);
  }
}

describe('POST /v2/automatic-pix/recurrences: a valid create', () => {
  it('answers 201 with exactly the recurrence object, defaults applied', async () => {
    const body = recurrenceBody({ debtor: { document_number: '52998224725', name: 'Maria Souza', email: 'maria@example.com', address } });
    const answer = await api.create(body);
    expect(answer).toEqual({
      status: 201,
      body: {
        recurrence_id: expect.stringMatching(UUID),
        status: 'CREATED',
        contract: body.transaction_id,
        debtor: { document_number: '52998224725', name: 'Maria Souza' },
        schedule: { start_date: brasiliaDay(1), end_date: null, periodicity: 'MONTHLY' },
        amount: 49.9,
        retry_policy: 'NOT_ALLOWED',
        business_day_adjust: false,
        charge_lead_days: 5,
        journey: 'AWAITING_DEFINITION',
        pix_copy_paste: expect.any(String),
        qrcode: expect.stringMatching(QRCODE),
        webhook: null,
      },
    });
  });

  it('echoes every optional field it shows, and a CNPJ debtor', async () => {
    const body = recurrenceBody({
      object: 'Plano mensal',
      debtor: { document_number: '11222333000181', name: 'Empresa Ltda', email: 'financeiro@empresa.com.br', address },
      schedule: { start_date: brasiliaDay(2), end_date: brasiliaDay(400), periodicity: 'ANNUAL' },
      amount: 1200,
      retry_policy: 'ALLOWS_3R_7D',
      business_day_adjust: true,
      charge_lead_days: 10,
      webhook: 'https://merchant.example.com/hooks/pix',
    });
    const answer = await api.create(body);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      debtor: { document_number: '11222333000181', name: 'Empresa Ltda' },
      schedule: { start_date: brasiliaDay(2), end_date: brasiliaDay(400), periodicity: 'ANNUAL' },
      amount: 1200,
      retry_policy: 'ALLOWS_3R_7D',
      business_day_adjust: true,
      charge_lead_days: 10,
      webhook: 'https://merchant.example.com/hooks/pix',
    });
    expect(Object.keys(answer.body.debtor)).toEqual(['document_number', 'name']);
    expect(answer.body).not.toHaveProperty('object');
    expect(answer.body).not.toHaveProperty('activation');
  });

  it('gives a Pix copy-and-paste BR Code with the recurrence location in tag 80, and its QR code as a PNG', async () => {
    const { pix_copy_paste: code, qrcode } = await created();
    expect(code.startsWith('000201')).toBe(true);
    expect(code).toContain('br.gov.bcb.pix');
    const tag80 = emvFields(brCodeFields(code).get('80') ?? '');
    expect(tag80.get('00')).toBe('br.gov.bcb.pix');
    expect(tag80.get('25')).toEqual(expect.stringMatching(/\/rec\//));
    const png = Buffer.from(qrcode.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('accepts the limits themselves: a 35-character transaction_id and a start_date tomorrow in Brasília', async () => {
    const transactionId = 'x'.repeat(19) + freshTransactionId('').slice(0, 16);
    expect(transactionId).toHaveLength(35);
    const body = await created({ transaction_id: transactionId, schedule: { start_date: brasiliaDay(1), periodicity: 'WEEKLY' } });
    expect(body.contract).toBe(transactionId);
    expect(body.schedule.start_date).toBe(brasiliaDay(1));
  });
});

describe('POST /v2/automatic-pix/recurrences: every field message, and nothing created', () => {
  it('"body.transaction_id already exists" for a second create with the same transaction_id', async () => {
    const before = await markRecurrenceDatabase(system, merchant.accountId);
    const first = await created();
    // The instrument works: the create itself is seen.
    expect(await writtenSince(system, merchant.accountId, before)).toMatchObject({ rows: 1, events: 1 });
    const mark = await markRecurrenceDatabase(system, merchant.accountId);
    expect(await api.create(recurrenceBody({ transaction_id: first.contract }))).toEqual(invalid('body.transaction_id already exists'));
    expect(await writtenSince(system, merchant.accountId, mark)).toEqual({ rows: 0, events: 0, outbox: 0 });
    expect(await storedFor(system, merchant.accountId, first.contract)).toMatchObject({ rows: 1, events: 1 });
  });

  it('"body.transaction_id is a required field" when it is missing', async () => {
    await expectRefusedCreate(without('transaction_id'), 'body.transaction_id is a required field');
  });

  it('"transaction_id must be at most 35 characters" for 36: refused, not truncated', async () => {
    const long = 'y'.repeat(12) + freshTransactionId('').slice(0, 24);
    expect(long).toHaveLength(36);
    await expectRefusedCreate(recurrenceBody({ transaction_id: long }), 'transaction_id must be at most 35 characters');
    expect(await storedFor(system, merchant.accountId, long.slice(0, 35))).toEqual({ rows: 0, events: 0, outbox: 0 });
    expect((await api.create(recurrenceBody({ transaction_id: long.slice(0, 35) }))).status).toBe(201);
  });

  it('"body.schedule.start_date must be after today (Brasília time)" for today', async () => {
    await expectRefusedCreate(withSchedule({ start_date: brasiliaDay(0) }), 'body.schedule.start_date must be after today (Brasília time)');
  });

  it('"body.schedule.start_date must be after today (Brasília time)" for a past day', async () => {
    await expectRefusedCreate(withSchedule({ start_date: brasiliaDay(-1) }), 'body.schedule.start_date must be after today (Brasília time)');
  });

  it('"body.schedule.end_date must be after schedule.start_date" when both are the same day', async () => {
    await expectRefusedCreate(
      withSchedule({ start_date: brasiliaDay(3), end_date: brasiliaDay(3) }),
      'body.schedule.end_date must be after schedule.start_date',
    );
  });

  it('"body.schedule.start_date is not a valid date" for a nonexistent day', async () => {
    await expectRefusedCreate(withSchedule({ start_date: '2099-02-30' }), 'body.schedule.start_date is not a valid date');
  });

  it('"body.schedule.end_date is not a valid date" for a nonexistent end day', async () => {
    await expectRefusedCreate(withSchedule({ end_date: '2099-04-31' }), 'body.schedule.end_date is not a valid date');
  });

  it('"body.schedule.start_date must be YYYY-MM-DD" for another format', async () => {
    await expectRefusedCreate(withSchedule({ start_date: '01/03/2099' }), 'body.schedule.start_date must be YYYY-MM-DD');
  });

  it('"body.schedule.end_date must be YYYY-MM-DD" for another end format', async () => {
    await expectRefusedCreate(withSchedule({ end_date: '2099-3-1' }), 'body.schedule.end_date must be YYYY-MM-DD');
  });

  it('"body.business_day_adjust must be true or false" for the string "true"', async () => {
    await expectRefusedCreate(recurrenceBody({ business_day_adjust: 'true' }), 'body.business_day_adjust must be true or false');
  });

  it.each([2, 11, 4.5, '5'])('"body.charge_lead_days must be an integer between 3 and 10" for %p', async (days) => {
    await expectRefusedCreate(recurrenceBody({ charge_lead_days: days }), 'body.charge_lead_days must be an integer between 3 and 10');
  });

  it('"amount is required: variable-amount mandates are not supported" when amount is missing', async () => {
    await expectRefusedCreate(without('amount'), 'amount is required: variable-amount mandates are not supported');
  });

  it('points the old `contract` field to transaction_id', async () => {
    await expectRefusedCreate(recurrenceBody({ contract: 'c-1' }), '`contract` is not a field of this endpoint anymore -- use `transaction_id`');
  });

  it('names unknown fields, nested ones by their path', async () => {
    await expectRefusedCreate(recurrenceBody({ foo: 1, bar: 2 }), '`foo, bar` is not a field of this endpoint');
    await expectRefusedCreate(withDebtor({ phone: '11999999999' }), '`debtor.phone` is not a field of this endpoint');
  });

  it('refuses the old contract and an unknown field together, contract first', async () => {
    await expectRefusedCreate(
      recurrenceBody({ foo: 1, contract: 'c-1' }),
      '`contract` is not a field of this endpoint anymore -- use `transaction_id`. `foo` is not a field of this endpoint',
    );
  });

  it.each(['52998224724', '529.982.247-25', '11222333000180'])('"body.debtor.document_number is invalid" for %p', async (document) => {
    await expectRefusedCreate(withDebtor({ document_number: document }), 'body.debtor.document_number is invalid');
  });

  it('"body.debtor.name must be at most 100 characters" for 101', async () => {
    await expectRefusedCreate(withDebtor({ name: 'n'.repeat(101) }), 'body.debtor.name must be at most 100 characters');
  });

  it.each(['01310-100', '0131010'])('"zip_code must be 8 digits" for %p', async (zip) => {
    await expectRefusedCreate(withDebtor({ address: { ...address, zip_code: zip } }), 'zip_code must be 8 digits');
  });

  it.each(['DAILY', 'monthly'])('refuses periodicity %p with the list of values', async (periodicity) => {
    await expectRefusedCreate(
      withSchedule({ periodicity }),
      'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL',
    );
  });

  it('"client has no wallet configured" for an account without a wallet, which can create once it has one', async () => {
    const walletless = await openAccount(system, { wallet: false });
    const body = recurrenceBody();
    await expectRefusedCreate(body, 'client has no wallet configured', walletless);
    expect(await storedFor(system, walletless.accountId, body.transaction_id as string)).toEqual({ rows: 0, events: 0, outbox: 0 });
    expect((await admin(system, 'PATCH', `/admin/accounts/${walletless.accountId}`, { wallet: true })).status).toBe(200);
    expect((await recurrenceClient(system, walletless).create(body)).status).toBe(201);
  });

  it('names several problems in one message, separated by ". "', async () => {
    await expectRefusedCreate(
      {
        transaction_id: freshTransactionId(),
        debtor: { document_number: freshCpf(), name: 'n'.repeat(101), address: { ...address, zip_code: '01310-100' } },
        schedule: { start_date: brasiliaDay(0), end_date: brasiliaDay(0), periodicity: 'DAILY' },
        retry_policy: 'NOT_ALLOWED',
        business_day_adjust: 'true',
        charge_lead_days: 1,
      },
      [
        'body.debtor.name must be at most 100 characters',
        'zip_code must be 8 digits',
        'body.schedule.start_date must be after today (Brasília time)',
        'body.schedule.end_date must be after schedule.start_date',
        'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL',
        'amount is required: variable-amount mandates are not supported',
        'body.business_day_adjust must be true or false',
        'body.charge_lead_days must be an integer between 3 and 10',
      ].join('. '),
    );
  });
});

describe('transaction_id: unique per tenant (account and environment)', () => {
  it('settles 8 identical concurrent creates: one 201, seven "already exists", one row and one event', async () => {
    const body = recurrenceBody();
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.create(body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201)).toEqual(Array.from({ length: 7 }, () => invalid('body.transaction_id already exists')));
    const stored = await storedFor(system, merchant.accountId, body.transaction_id as string);
    expect([stored.rows, stored.events]).toEqual([1, 1]);
  });

  it('accepts the same transaction_id in another account', async () => {
    const first = await created();
    const other = recurrenceClient(system, await openAccount(system));
    expect((await other.create(recurrenceBody({ transaction_id: first.contract }))).status).toBe(201);
  });

  it('accepts the same transaction_id in the sandbox of the same account', async () => {
    const first = await created();
    const sandbox = recurrenceClient(system, merchant, 'sandbox');
    const answer = await sandbox.create(recurrenceBody({ transaction_id: first.contract }));
    expect(answer.status).toBe(201);
    expect(answer.body.recurrence_id).not.toBe(first.recurrence_id);
    expect(await sandbox.create(recurrenceBody({ transaction_id: first.contract }))).toEqual(invalid('body.transaction_id already exists'));
  });
});

describe('GET /v2/automatic-pix/recurrences/:recurrence_id', () => {
  it('reads right after the POST exactly what the POST answered', async () => {
    const body = await created({ webhook: 'https://merchant.example.com/hook' });
    expect(await api.get(body.recurrence_id)).toEqual({ status: 200, body });
  });

  it('reads right after a PATCH what the PATCH answered', async () => {
    const { recurrence_id: id } = await created();
    const patched = await api.update(id, { charge_lead_days: 7, debtor_name: 'Maria S. Souza' });
    expect(patched.status).toBe(200);
    expect(await api.get(id)).toEqual({ status: 200, body: patched.body });
  });

  it('answers 404 "Recurrence not found" for an unknown id', async () => {
    expect(await api.get('00000000-0000-0000-0000-000000000000')).toEqual(RECURRENCE_NOT_FOUND);
    expect(await api.get('not-an-id')).toEqual(RECURRENCE_NOT_FOUND);
  });

  it("answers another account's recurrence exactly as an unknown one", async () => {
    const { recurrence_id: id } = await created();
    const other = recurrenceClient(system, await openAccount(system));
    expect(await other.get(id)).toEqual(RECURRENCE_NOT_FOUND);
  });

  it('answers a sandbox recurrence 404 on the production port', async () => {
    const sandbox = recurrenceClient(system, merchant, 'sandbox');
    const { recurrence_id: id } = await created({}, sandbox);
    expect((await sandbox.get(id)).status).toBe(200);
    expect(await api.get(id)).toEqual(RECURRENCE_NOT_FOUND);
    expect(await api.update(id, { status: 'CANCELLED' })).toEqual(RECURRENCE_NOT_FOUND);
    expect((await sandbox.get(id)).body.status).toBe('CREATED');
  });
});

describe('GET /v2/automatic-pix/recurrences (list)', () => {
  const ALL_TIME = `?start=${encodeURIComponent('2000-01-01T00:00:00-03:00')}&end=${encodeURIComponent('2100-01-01T00:00:00Z')}`;
  let lister: RecurrenceClient;
  let oldest: Record<string, unknown>;
  let middle: Record<string, unknown>;
  let newest: Record<string, unknown>;

  beforeAll(async () => {
    lister = recurrenceClient(system, await openAccount(system));
    oldest = await created({}, lister);
    middle = await created({}, lister);
    newest = await created({}, lister);
  });

  const withoutQrcode = ({ qrcode: _qrcode, ...rest }: Record<string, unknown>) => rest;

  it.each([
    ['start is missing', `?end=${encodeURIComponent('2100-01-01T00:00:00Z')}`],
    ['end is missing', `?start=${encodeURIComponent('2000-01-01T00:00:00Z')}`],
    ['both are missing', ''],
  ])('answers "start and end are required" when %s', async (_case, query) => {
    expect(await lister.list(query)).toEqual(invalid('start and end are required'));
  });

  it('lists newest first, from page 0, 100 to a page by default, without qrcode', async () => {
    expect(await lister.list(ALL_TIME)).toEqual({
      status: 200,
      body: {
        pagination: { current_page: 0, page_size: 100, total_pages: 1, total_items: 3 },
        recurrences: [withoutQrcode(newest), withoutQrcode(middle), withoutQrcode(oldest)],
      },
    });
  });

  it('shows pix_copy_paste but no qrcode key on list items', async () => {
    const { body } = await lister.list(ALL_TIME);
    for (const item of body.recurrences) {
      expect(item.pix_copy_paste).toEqual(expect.stringMatching(/^000201/));
      expect(item).not.toHaveProperty('qrcode');
    }
  });

  it('pages 3 items by 2: two on page 0, one on page 1, and none beyond', async () => {
    const first = await lister.list(`${ALL_TIME}&page_size=2`);
    expect(first.body.pagination).toEqual({ current_page: 0, page_size: 2, total_pages: 2, total_items: 3 });
    expect(first.body.recurrences.map((r: { recurrence_id: string }) => r.recurrence_id)).toEqual([newest.recurrence_id, middle.recurrence_id]);
    const second = await lister.list(`${ALL_TIME}&page_size=2&page=1`);
    expect(second.body.pagination).toEqual({ current_page: 1, page_size: 2, total_pages: 2, total_items: 3 });
    expect(second.body.recurrences.map((r: { recurrence_id: string }) => r.recurrence_id)).toEqual([oldest.recurrence_id]);
    const beyond = await lister.list(`${ALL_TIME}&page_size=2&page=2`);
    expect(beyond.body).toEqual({ pagination: { current_page: 2, page_size: 2, total_pages: 2, total_items: 3 }, recurrences: [] });
  });

  it('makes a page_size above 100 a page of 100', async () => {
    const answer = await lister.list(`${ALL_TIME}&page_size=500`);
    expect(answer.status).toBe(200);
    expect(answer.body.pagination).toEqual({ current_page: 0, page_size: 100, total_pages: 1, total_items: 3 });
  });

  it('compares start and end with the creation date', async () => {
    const before = await lister.list(`?start=${encodeURIComponent('2000-01-01T00:00:00Z')}&end=${encodeURIComponent('2001-01-01T00:00:00Z')}`);
    expect(before.body).toEqual({ pagination: { current_page: 0, page_size: 100, total_pages: 0, total_items: 0 }, recurrences: [] });
  });

  it("lists only the tenant's own recurrences", async () => {
    const mine = new Set([oldest.recurrence_id, middle.recurrence_id, newest.recurrence_id]);
    const others = await api.list(ALL_TIME);
    expect(others.status).toBe(200);
    expect(others.body.recurrences.some((r: { recurrence_id: string }) => mine.has(r.recurrence_id))).toBe(false);
    const sandbox = await call(system.profile.sandbox, 'GET', `${RECURRENCES}${ALL_TIME}`, { key: merchant.sandbox });
    expect(sandbox.body.recurrences.some((r: { recurrence_id: string }) => mine.has(r.recurrence_id))).toBe(false);
  });
});

describe('PATCH /v2/automatic-pix/recurrences/:recurrence_id: refusals', () => {
  /** A refused PATCH answers exactly `message` and changes nothing: the same GET before and after, no new event. */
  async function expectRefusedUpdate(json: unknown, expected: { status: number; body: unknown }, overrides: Record<string, unknown> = {}) {
    const { recurrence_id: id } = await created({ webhook: 'https://merchant.example.com/hook', ...overrides });
    const before = await api.get(id);
    const eventsBefore = await eventsOf(system, id);
    expect(await api.update(id, json)).toEqual(expected);
    expect(await api.get(id)).toEqual(before);
    expect(await eventsOf(system, id)).toEqual(eventsBefore);
  }

  it('asks for at least one changeable field on an empty body', async () => {
    await expectRefusedUpdate({}, invalid(`body must set at least one changeable field: ${CHANGEABLE}`));
  });

  it.each(['amount', 'periodicity', 'end_date', 'retry_policy', 'object', 'debtor', 'schedule', 'location_id', 'contract'])(
    'refuses `%s`, naming it, with the advice to cancel and recreate',
    async (field) => {
      await expectRefusedUpdate(
        { [field]: 1 },
        invalid(
          `\`${field}\` cannot be changed after a recurrence is created. To change it, cancel this recurrence and create a new one ` +
            'with a new transaction_id, which the payer authorizes again',
        ),
      );
    },
  );

  it('refuses a fixed field sent with a valid change, and applies neither', async () => {
    await expectRefusedUpdate(
      { webhook: 'https://merchant.example.com/other', amount: 99.9, end_date: '2099-01-01' },
      invalid(
        '`amount, end_date` cannot be changed after a recurrence is created. To change them, cancel this recurrence and create a new one ' +
          'with a new transaction_id, which the payer authorizes again',
      ),
    );
  });

  it('names an unknown field and lists the changeable ones', async () => {
    await expectRefusedUpdate({ foo: 1, debtor_email: 'a@b.com' }, invalid(`\`foo, debtor_email\` is not a field of this endpoint. Changeable: ${CHANGEABLE}`));
  });

  it.each(['ACTIVE', 'APPROVED', 'cancelled'])('refuses status %p: only CANCELLED', async (status) => {
    await expectRefusedUpdate({ status }, invalid('body.status must be one of the following values: CANCELLED'));
  });

  it('refuses a start_date of today in Brasília', async () => {
    await expectRefusedUpdate({ start_date: brasiliaDay(0) }, invalid('body.start_date must be after today (Brasília time)'));
  });

  it('refuses a past start_date', async () => {
    await expectRefusedUpdate({ start_date: brasiliaDay(-10) }, invalid('body.start_date must be after today (Brasília time)'));
  });

  it('refuses a start_date that is not before the end_date (a decision: the schedule would be empty)', async () => {
    const schedule = { start_date: brasiliaDay(2), end_date: brasiliaDay(30), periodicity: 'WEEKLY' };
    await expectRefusedUpdate({ start_date: brasiliaDay(30) }, invalid('body.start_date must be before schedule.end_date'), { schedule });
  });

  it('names several problems in one message', async () => {
    await expectRefusedUpdate(
      { charge_lead_days: 1, status: 'PAUSED', start_date: brasiliaDay(0) },
      invalid(
        'body.start_date must be after today (Brasília time). body.status must be one of the following values: CANCELLED. ' +
          'body.charge_lead_days must be an integer between 3 and 10',
      ),
    );
  });

  it('answers 404 "Recurrence not found" for an unknown id', async () => {
    expect(await api.update('00000000-0000-0000-0000-000000000000', { status: 'CANCELLED' })).toEqual(RECURRENCE_NOT_FOUND);
  });

  it("answers 404 for another account's recurrence, and leaves it alone", async () => {
    const { recurrence_id: id } = await created();
    const other = recurrenceClient(system, await openAccount(system));
    expect(await other.update(id, { status: 'CANCELLED' })).toEqual(RECURRENCE_NOT_FOUND);
    expect((await api.get(id)).body.status).toBe('CREATED');
    expect(await eventsOf(system, id)).toEqual([{ type: 'recurrence.created', version: 1 }]);
  });
});

describe('PATCH /v2/automatic-pix/recurrences/:recurrence_id: changes', () => {
  it('replaces the webhook', async () => {
    const { recurrence_id: id } = await created({ webhook: 'https://merchant.example.com/old' });
    const answer = await api.update(id, { webhook: 'https://merchant.example.com/new' });
    expect(answer.status).toBe(200);
    expect(answer.body.webhook).toBe('https://merchant.example.com/new');
    expect((await api.get(id)).body.webhook).toBe('https://merchant.example.com/new');
  });

  it.each([null, ''])('clears the webhook with %p', async (webhook) => {
    const { recurrence_id: id } = await created({ webhook: 'https://merchant.example.com/old' });
    const answer = await api.update(id, { webhook });
    expect(answer.status).toBe(200);
    expect(answer.body.webhook).toBeNull();
    expect((await api.get(id)).body.webhook).toBeNull();
  });

  it('changes business_day_adjust and charge_lead_days, and nothing else', async () => {
    const before = await created();
    const answer = await api.update(before.recurrence_id, { business_day_adjust: true, charge_lead_days: 3 });
    expect(answer).toEqual({ status: 200, body: { ...before, business_day_adjust: true, charge_lead_days: 3 } });
  });

  it('changes the debtor name, shown in debtor.name', async () => {
    const before = await created();
    const name = 'N'.repeat(140);
    const answer = await api.update(before.recurrence_id, { debtor_name: name });
    expect(answer).toEqual({ status: 200, body: { ...before, debtor: { ...before.debtor, name } } });
  });

  it('moves the start_date to a later day', async () => {
    const before = await created();
    const answer = await api.update(before.recurrence_id, { start_date: brasiliaDay(9) });
    expect(answer.status).toBe(200);
    expect(answer.body.schedule).toEqual({ ...before.schedule, start_date: brasiliaDay(9) });
  });

  it('cancels: status CANCELLED, pix_copy_paste null and no qrcode, and GET agrees', async () => {
    const before = await created();
    const answer = await api.update(before.recurrence_id, { status: 'CANCELLED' });
    const { qrcode: _qrcode, ...rest } = before;
    expect(answer).toEqual({ status: 200, body: { ...rest, status: 'CANCELLED', pix_copy_paste: null } });
    expect(await api.get(before.recurrence_id)).toEqual(answer);
  });

  it('answers a second cancel 200 with the same recurrence, recording nothing more', async () => {
    const { recurrence_id: id } = await created();
    const first = await api.update(id, { status: 'CANCELLED' });
    const events = await eventsOf(system, id);
    expect(await api.update(id, { status: 'CANCELLED' })).toEqual(first);
    expect(await eventsOf(system, id)).toEqual(events);
  });

  it('records nothing when a PATCH changes nothing', async () => {
    const before = await created({ webhook: 'https://merchant.example.com/same' });
    expect(await api.update(before.recurrence_id, { webhook: 'https://merchant.example.com/same', charge_lead_days: 5 })).toEqual({
      status: 200,
      body: before,
    });
    expect(await eventsOf(system, before.recurrence_id)).toEqual([{ type: 'recurrence.created', version: 1 }]);
  });

  it('refuses to change a cancelled recurrence', async () => {
    const { recurrence_id: id } = await created();
    await api.update(id, { status: 'CANCELLED' });
    expect(await api.update(id, { charge_lead_days: 8 })).toEqual(invalid('the recurrence is CANCELLED and can no longer be changed'));
  });
});
