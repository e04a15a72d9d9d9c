/** @shared-system */
import { PixBankClient, SimulatedPayer } from '@pixauto/bank';
import { eventually, until } from '@pixauto/testing';
import { call } from './support/http';
import { freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { SeenEvent, TopicWatcher } from './support/kafka';
import { metricsOf, total } from './support/metrics';
import { brCodeFields, emvFields, openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// Cash-in Pix charges: POST and GET /v2/pix (docs/decisions/cash-in.md), the sandbox payer's
// POST /v2/sandbox/pix/:id/pay, the bank's notification of a payment, expiry by the test clock, the events on Kafka
// (asyncapi.yaml) and the cashin customer limits (docs/decisions/limits.md).

const TOPIC = 'pixauto.payments.events.v1';
const SANDBOX_BANK_TOKEN = 'pixauto-sandbox'; // the token the system's sandbox holds at the bank simulator
const RECEIVER_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906'; // the simulator's SIMULATOR_RECEIVER_KEY, payments-service's PIX_RECEIVER_KEY
let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;
let watcher: TopicWatcher;
let bank: PixBankClient;
let payer: SimulatedPayer;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
  watcher = new TopicWatcher(TOPIC);
  await watcher.start();
  const bankUrl = `http://127.0.0.1:${system.profile.bank}`;
  bank = new PixBankClient(bankUrl, { token: SANDBOX_BANK_TOKEN });
  payer = new SimulatedPayer(bankUrl, { token: SANDBOX_BANK_TOKEN });
});
afterAll(async () => {
  await Promise.all([bank?.close(), payer?.close()]);
  await watcher?.stop();
});

const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const production = (method: string, path: string, json?: unknown, key = merchant.production) => call(system.profile.gateway, method, path, { key, json });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const exceeded = (message: string) => ({ status: 400, body: { type: 'LimitExceededError', message } });
const NOT_FOUND = { status: 404, body: { message: 'Pix charge not found' } };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const QRCODE = /^data:image\/png;base64,/;
const E2E_ID = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;

let sequence = 0;
const freshTransactionId = () => `pix-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const pixBody = (extra: Record<string, unknown> = {}) => ({
  transaction_id: freshTransactionId(),
  amount: 150.5,
  payer: { document_number: freshCpf(), name: 'Maria Silva' },
  ...extra,
});
const streamOf = (m: Merchant, environment: string, transactionId: string) => `pix_charge:${m.accountId}:${environment}:${transactionId}`;

async function created(body: Record<string, unknown> = pixBody(), post = sandbox) {
  const answer = await post('POST', '/v2/pix', body);
  expect(answer.status).toBe(201);
  return answer.body;
}

const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);
const txidOf = async (id: number): Promise<string> => String((await payments('SELECT txid FROM pix_charges WHERE id = $1', [id]))[0].txid);
/** How many Pix notifications of the bank (POST /bank/{environment}/pix) payments-service has answered. */
const bankPixNotices = async () =>
  total(await metricsOf(system.profile.paymentsOps), 'pixauto_http_request_duration_seconds_count', { listener: 'http', route: '/bank/:environment/pix' });

const eventTypes = async (streamId: string): Promise<string[]> =>
  (await payments('SELECT type FROM events WHERE stream_id = $1 ORDER BY version', [streamId])).map((row) => String(row.type));
const eventsOf = (transactionId: string): SeenEvent[] =>
  watcher.seen.filter((e) => (e.envelope.data.charge as { transaction_id?: string } | undefined)?.transaction_id === transactionId);

/** A refused request leaves nothing: no event, no row, no outbox message. */
async function expectNothingStoredFor(transactionId: string) {
  const [events] = await payments(`SELECT count(*)::int AS n FROM events WHERE data->'charge'->>'transaction_id' = $1 OR stream_id LIKE '%:' || $1`, [
    transactionId,
  ]);
  const [rows] = await payments('SELECT count(*)::int AS n FROM pix_charges WHERE transaction_id = $1', [transactionId]);
  const [outbox] = await payments(`SELECT count(*)::int AS n FROM outbox WHERE payload->'data'->'charge'->>'transaction_id' = $1`, [transactionId]);
  expect([events.n, rows.n, outbox.n]).toEqual([0, 0, 0]);
}

/** What the bank simulator holds of the charges it issued to the sandbox for one payer. */
async function bankChargesOf(document: string): Promise<string[]> {
  const rows = await queryService(
    system.profile.databasePrefix,
    'bank_simulator',
    `SELECT record->>'status' AS status FROM charges WHERE record->'devedor'->>'cpf' = $1`,
    [document],
  );
  return rows.map((row) => String(row.status)).sort();
}

describe('POST /v2/pix', () => {
  it('answers 201 with the charge: PENDING, the account provider, a dynamic BR Code pointing at the bank charge, and its QR image', async () => {
    const body = pixBody({ expires_in: 600, webhook: 'https://shop.example.com/pix', description: 'Pedido 1234' });
    const answer = await sandbox('POST', '/v2/pix', body);
    expect(answer).toEqual({
      status: 201,
      body: {
        id: expect.any(Number),
        transaction_id: body.transaction_id,
        amount: 150.5,
        status: 'PENDING',
        provider: 'PROVIDER_A',
        payer: body.payer,
        description: 'Pedido 1234',
        webhook: 'https://shop.example.com/pix',
        pix_copy_paste: expect.stringMatching(/^000201/),
        qrcode: expect.stringMatching(QRCODE),
        expires_at: expect.stringMatching(ISO_UTC),
        created_at: expect.stringMatching(ISO_UTC),
        paid_at: null,
        dispute: null,
      },
    });
    const charge = answer.body;
    expect(Number.isInteger(charge.id)).toBe(true);
    expect(Date.parse(charge.expires_at) - Date.parse(charge.created_at)).toBe(600_000);
    expect(Buffer.from(charge.qrcode.split(',')[1], 'base64').subarray(1, 4).toString()).toBe('PNG');

    // The bank's charge (PUT /cob/{txid}): our amount, payer, expiry, description and receiver key; the code points at its location.
    const cob = await bank.getImmediateCharge(await txidOf(charge.id));
    expect(cob).toMatchObject({
      status: 'ATIVA',
      calendario: { expiracao: 600 },
      valor: { original: '150.50' },
      devedor: { cpf: body.payer.document_number, nome: 'Maria Silva' },
      chave: RECEIVER_KEY,
      solicitacaoPagador: 'Pedido 1234',
    });
    expect(cob.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    const fields = brCodeFields(charge.pix_copy_paste); // throws on a bad CRC
    const account = emvFields(fields.get('26') ?? '');
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('25')).toBe(cob.loc?.location);
    expect(fields.get('59')).toBe('LOJA E2E');
    expect(fields.get('60')).toBe('SAO PAULO');
    expect(fields.get('80')).toBeUndefined(); // no recurrence in a cash-in code

    // GET reads the same object, by id and by transaction_id.
    expect(await sandbox('GET', `/v2/pix?id=${charge.id}`)).toEqual({ status: 200, body: charge });
    expect(await sandbox('GET', `/v2/pix?transaction_id=${charge.transaction_id}`)).toEqual({ status: 200, body: charge });
  });

  it('defaults expires_in to 3600 s and has null webhook and description when absent; works in production too', async () => {
    const body = pixBody();
    const charge = await created(body, production);
    expect(charge).toMatchObject({ status: 'PENDING', description: null, webhook: null, paid_at: null });
    expect(Date.parse(charge.expires_at) - Date.parse(charge.created_at)).toBe(3_600_000);
    expect(await production('GET', `/v2/pix?id=${charge.id}`)).toEqual({ status: 200, body: charge });
    expect(await sandbox('GET', `/v2/pix?id=${charge.id}`)).toEqual(NOT_FOUND); // the other environment
  });

  it('names the account cashin_provider as the provider', async () => {
    const account = await openAccount(system, { cashin_provider: 'PROVIDER_B' });
    const charge = await created(pixBody(), (method, path, json) => sandbox(method, path, json, account.sandbox));
    expect(charge.provider).toBe('PROVIDER_B');
  });

  it('publishes pix_charge.created carrying the whole charge and its webhook, keyed by the stream', async () => {
    const body = pixBody({ webhook: 'https://shop.example.com/hooks/pix', description: 'Pedido 9' });
    const charge = await created(body);
    await watcher.waitFor(() => eventsOf(body.transaction_id).length >= 1);
    const [event] = eventsOf(body.transaction_id);
    expect(event.key).toBe(streamOf(merchant, 'sandbox', body.transaction_id));
    expect(event.envelope).toMatchObject({
      type: 'pix_charge.created',
      stream_id: event.key,
      version: 1,
      tenant: { account_id: merchant.accountId, environment: 'sandbox' },
      data: {
        charge: {
          id: charge.id,
          transaction_id: body.transaction_id,
          amount_centavos: 15050,
          status: 'PENDING',
          provider: 'PROVIDER_A',
          payer: body.payer,
          description: 'Pedido 9',
          webhook: 'https://shop.example.com/hooks/pix',
          pix_copy_paste: charge.pix_copy_paste,
          expires_at: charge.expires_at,
          created_at: charge.created_at,
          paid_at: null,
          bank: { txid: await txidOf(charge.id), location: expect.any(String) },
          e2e_id: null,
          origin: null,
        },
      },
    });
  });
});

describe('POST /v2/pix refusals (nothing is created)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing transaction_id', { transaction_id: undefined }, 'body.transaction_id is a required field'],
    ['empty transaction_id', { transaction_id: '' }, 'body.transaction_id is a required field'],
    ['numeric transaction_id', { transaction_id: 12345 }, 'body.transaction_id must be a string'],
    ['transaction_id over 35', { transaction_id: `pix-long-${'x'.repeat(30)}` }, 'transaction_id must be at most 35 characters'],
    ['missing amount', { amount: undefined }, 'body.amount is a required field'],
    ['zero amount', { amount: 0 }, 'body.amount must be a positive number'],
    ['negative amount', { amount: -5 }, 'body.amount must be a positive number'],
    ['string amount', { amount: '10.00' }, 'body.amount must be a positive number'],
    ['three decimals', { amount: 10.001 }, 'body.amount must have at most 2 decimal places'],
    ['amount over the ceiling', { amount: 10_000_000_000 }, 'body.amount must be at most 9999999999.99'],
    ['missing payer', { payer: undefined }, 'body.payer is a required field'],
    ['payer not an object', { payer: 'Maria' }, 'body.payer must be an object'],
    ['missing payer document', { payer: { name: 'Maria' } }, 'body.payer.document_number is a required field'],
    ['bad CPF check digit', { payer: { document_number: '52998224724', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    ['punctuated CPF', { payer: { document_number: '529.982.247-25', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    ['bad CNPJ check digit', { payer: { document_number: '11222333000180', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    ['missing payer name', { payer: { document_number: '52998224725' } }, 'body.payer.name is a required field'],
    ['payer name over 100', { payer: { document_number: '52998224725', name: 'x'.repeat(101) } }, 'body.payer.name must be a string of at most 100 characters'],
    ['expires_in 0', { expires_in: 0 }, 'body.expires_in must be an integer between 1 and 86400'],
    ['expires_in over a day', { expires_in: 86401 }, 'body.expires_in must be an integer between 1 and 86400'],
    ['fractional expires_in', { expires_in: 60.5 }, 'body.expires_in must be an integer between 1 and 86400'],
    ['webhook not a URL', { webhook: 'not a url' }, 'body.webhook must be a URL of at most 255 characters'],
    ['webhook over 255', { webhook: `https://shop.example.com/${'x'.repeat(240)}` }, 'body.webhook must be a URL of at most 255 characters'],
    ['description over 140', { description: 'x'.repeat(141) }, 'body.description must be a string of at most 140 characters'],
    ['unknown fields', { customer: 'x', currency: 'BRL' }, '`customer, currency` is not a field of this endpoint'],
    [
      'unknown payer field',
      { payer: { document_number: '52998224725', name: 'Maria', email: 'm@example.com' } },
      '`payer.email` is not a field of this endpoint',
    ],
  ];

  it.each(cases)('%s: %j → 400 "%s"', async (_name, change, message) => {
    const body = { ...pixBody(), ...change };
    const transactionId = typeof body.transaction_id === 'string' && body.transaction_id !== '' ? body.transaction_id : freshTransactionId();
    expect(await sandbox('POST', '/v2/pix', body)).toEqual(invalid(message));
    await expectNothingStoredFor(transactionId);
  });

  it('gives several field problems in one message', async () => {
    const body = pixBody({ amount: 0, expires_in: 0 });
    expect(await sandbox('POST', '/v2/pix', body)).toEqual(
      invalid('body.amount must be a positive number. body.expires_in must be an integer between 1 and 86400'),
    );
    await expectNothingStoredFor(body.transaction_id);
  });

  it('refuses a body that is not a JSON object', async () => {
    expect(await sandbox('POST', '/v2/pix', [pixBody()])).toEqual(invalid('body must be a JSON object'));
  });

  it('refuses a transaction_id already used in the account (unique per tenant: another account may use it)', async () => {
    const body = pixBody();
    const first = await created(body);
    expect(await sandbox('POST', '/v2/pix', { ...body, amount: 10 })).toEqual(invalid('body.transaction_id already exists'));
    expect((await sandbox('POST', '/v2/pix', body, other.sandbox)).status).toBe(201);
    expect((await production('POST', '/v2/pix', body)).status).toBe(201);
    expect(await eventTypes(streamOf(merchant, 'sandbox', body.transaction_id))).toEqual(['pix_charge.created']);
    expect(await sandbox('GET', `/v2/pix?transaction_id=${body.transaction_id}`)).toEqual({ status: 200, body: first });
  });

  it('settles eight identical concurrent creations: one 201, seven refusals, one charge, and the losers removed at the bank', async () => {
    const body = pixBody();
    const answers = await Promise.all(Array.from({ length: 8 }, () => sandbox('POST', '/v2/pix', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 201)).toEqual(Array.from({ length: 7 }, () => invalid('body.transaction_id already exists')));
    expect((await payments('SELECT count(*)::int AS n FROM pix_charges WHERE transaction_id = $1', [body.transaction_id]))[0].n).toBe(1);
    expect(await eventTypes(streamOf(merchant, 'sandbox', body.transaction_id))).toEqual(['pix_charge.created']);
    const atBank = await bankChargesOf(body.payer.document_number);
    expect(atBank.filter((status) => status === 'ATIVA')).toHaveLength(1); // every loser created one; none stays payable
  });

  it('refuses the transaction_id of a journey 3 activation deposit announced in the account', async () => {
    const recurrenceTransactionId = `ativ-${Date.now().toString(36)}-${++sequence}`; // short enough for its deposit's id to be a valid one
    const recurrence = await recurrenceClient(system, merchant, 'sandbox').create(
      recurrenceBody({ transaction_id: recurrenceTransactionId, activation_amount: 5 }),
    );
    expect(recurrence.status).toBe(201);
    // payments-service learns the activation from Kafka within moments
    await eventually(
      async () => ({ status: 200, body: await payments('SELECT 1 FROM pending_activations WHERE transaction_id = $1', [recurrenceTransactionId]) }),
      (answer) => answer.body.length === 1,
      WITHIN_SECONDS,
    );
    const transactionId = `${recurrenceTransactionId}-ativacao`;
    expect(await sandbox('POST', '/v2/pix', pixBody({ transaction_id: transactionId }))).toEqual(invalid('body.transaction_id already exists'));
    await expectNothingStoredFor(transactionId);
  });

  it('answers a bank refusal as a ProviderError and records nothing', async () => {
    // The bank refuses a PUT /cob on a charge it already has paid: make the txid our next charge will take such a one.
    const [sequenceState] = await payments('SELECT last_value, is_called FROM pix_charge_ids', []);
    const nextId = Number(sequenceState.last_value) + (sequenceState.is_called ? 1 : 0);
    const txid = `PIXAUTOCS${String(nextId).padStart(20, '0')}`;
    await bank.createImmediateCharge(txid, { calendario: {}, chave: RECEIVER_KEY, valor: { original: '1.00' } });
    await payer.payImmediateCharge(txid);
    const body = pixBody();
    const answer = await sandbox('POST', '/v2/pix', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'ProviderError', message: expect.any(String), provider_code: expect.any(String) });
    await expectNothingStoredFor(body.transaction_id);
  });
});

describe('GET /v2/pix', () => {
  it("answers 404 for an unknown charge or another account's, and the query messages", async () => {
    const charge = await created();
    expect(await sandbox('GET', `/v2/pix?id=${charge.id}`, undefined, other.sandbox)).toEqual(NOT_FOUND);
    expect(await sandbox('GET', `/v2/pix?transaction_id=${charge.transaction_id}`, undefined, other.sandbox)).toEqual(NOT_FOUND);
    expect(await sandbox('GET', '/v2/pix?id=999999999')).toEqual(NOT_FOUND);
    expect(await sandbox('GET', '/v2/pix')).toEqual(invalid('one of id, transaction_id is required'));
    expect(await sandbox('GET', `/v2/pix?id=${charge.id}&transaction_id=x`)).toEqual(invalid('please provide only one of id, transaction_id'));
    expect(await sandbox('GET', '/v2/pix?id=abc')).toEqual(invalid('query.id must be a positive integer'));
  });
});

describe('paying a charge', () => {
  it('POST /v2/sandbox/pix/:id/pay: 200 PAID with paid_at, the code voided; GET agrees; a second payment is refused', async () => {
    const charge = await created();
    const noticesBefore = await bankPixNotices();
    const answer = await sandbox('POST', `/v2/sandbox/pix/${charge.id}/pay`);
    const { qrcode: _qrcode, ...rest } = charge;
    expect(answer).toEqual({ status: 200, body: { ...rest, status: 'PAID', pix_copy_paste: null, paid_at: expect.stringMatching(ISO_UTC) } });
    expect(answer.body).not.toHaveProperty('qrcode');
    expect(await sandbox('GET', `/v2/pix?id=${charge.id}`)).toEqual(answer);
    expect(await sandbox('POST', `/v2/sandbox/pix/${charge.id}/pay`)).toEqual(invalid('the Pix charge is PAID: only a PENDING charge can be paid'));
    expect((await bank.getImmediateCharge(await txidOf(charge.id))).status).toBe('CONCLUIDA');

    // The bank's own notification of the same payment records nothing more: one paid event.
    await watcher.waitFor(() => eventsOf(charge.transaction_id).some((e) => e.envelope.type === 'pix_charge.paid'));
    const paid = eventsOf(charge.transaction_id).find((e) => e.envelope.type === 'pix_charge.paid');
    expect(paid?.envelope.data.charge).toMatchObject({
      id: charge.id,
      status: 'PAID',
      paid_at: answer.body.paid_at,
      e2e_id: expect.stringMatching(E2E_ID),
      pix_copy_paste: null,
    });
    await until(async () => (await bankPixNotices()) > noticesBefore, { ...WITHIN_SECONDS, what: "the bank's notification of the payment, handled" });
    expect(await eventTypes(streamOf(merchant, 'sandbox', charge.transaction_id))).toEqual(['pix_charge.created', 'pix_charge.paid']);
  });

  it("the sandbox pay route: 404 for unknown ids and another account's, 400 for a non-integer id, 404 on the production port", async () => {
    const charge = await created();
    expect(await sandbox('POST', '/v2/sandbox/pix/999999999/pay')).toEqual(NOT_FOUND);
    expect(await sandbox('POST', `/v2/sandbox/pix/${charge.id}/pay`, undefined, other.sandbox)).toEqual(NOT_FOUND);
    expect(await sandbox('POST', '/v2/sandbox/pix/abc/pay')).toEqual(invalid('params.id must be a positive integer'));
    expect(await sandbox('POST', '/v2/sandbox/pix/1.5/pay')).toEqual(invalid('params.id must be a positive integer'));
    expect(await production('POST', `/v2/sandbox/pix/${charge.id}/pay`)).toEqual({ status: 404, body: { message: 'Route not found' } });
    expect((await sandbox('GET', `/v2/pix?id=${charge.id}`)).body.status).toBe('PENDING');
  });

  it("is recorded from the bank's notification when the payer pays at the bank directly", async () => {
    const charge = await created();
    const txid = await txidOf(charge.id);
    const cob = await payer.payImmediateCharge(txid);
    const paid = await eventually(
      () => sandbox('GET', `/v2/pix?id=${charge.id}`),
      (answer) => answer.body.status === 'PAID',
      { ...WITHIN_SECONDS, timeoutMs: 5_000 },
    );
    expect(paid.body).toMatchObject({ status: 'PAID', pix_copy_paste: null, paid_at: new Date(cob.pix?.[0].horario ?? '').toISOString() });
    expect(paid.body).not.toHaveProperty('qrcode');
    expect(await eventTypes(streamOf(merchant, 'sandbox', charge.transaction_id))).toEqual(['pix_charge.created', 'pix_charge.paid']);
  });
});

describe('expiry', () => {
  it('a charge unpaid past expires_at becomes EXPIRED within seconds (production, real time)', async () => {
    const charge = await created(pixBody({ expires_in: 1 }), production);
    const expired = await eventually(
      () => production('GET', `/v2/pix?id=${charge.id}`),
      (answer) => answer.body.status === 'EXPIRED',
      { ...WITHIN_SECONDS, timeoutMs: 10_000 },
    );
    const { qrcode: _qrcode, ...rest } = charge;
    expect(expired.body).toEqual({ ...rest, status: 'EXPIRED', pix_copy_paste: null });
  });

  it('follows the sandbox test clock: two hours on, a one-hour charge is EXPIRED, can no longer be paid, and its event is published', async () => {
    const tenant = await newMerchant(system);
    const post = (method: string, path: string, json?: unknown) => sandbox(method, path, json, tenant.sandbox);
    const charge = await created(pixBody({ expires_in: 3600 }), post);
    expect((await post('POST', '/v2/sandbox/clock/advance', { hours: 2 })).status).toBe(200);
    const expired = await eventually(
      () => post('GET', `/v2/pix?id=${charge.id}`),
      (answer) => answer.body.status === 'EXPIRED',
      { ...WITHIN_SECONDS, timeoutMs: 10_000 },
    );
    expect(expired.body).toMatchObject({ status: 'EXPIRED', pix_copy_paste: null, paid_at: null });
    expect(expired.body).not.toHaveProperty('qrcode');
    expect(await post('POST', `/v2/sandbox/pix/${charge.id}/pay`)).toEqual(invalid('the Pix charge is EXPIRED: only a PENDING charge can be paid'));
    await watcher.waitFor(() => eventsOf(charge.transaction_id).some((e) => e.envelope.type === 'pix_charge.expired'));
    const event = eventsOf(charge.transaction_id).find((e) => e.envelope.type === 'pix_charge.expired');
    expect(event?.envelope).toMatchObject({
      version: 2,
      tenant: { account_id: tenant.accountId, environment: 'sandbox' },
      data: { charge: { id: charge.id, status: 'EXPIRED', pix_copy_paste: null } },
    });
    // The bank's charge can no longer be paid either.
    await expect(payer.payImmediateCharge(await txidOf(charge.id))).rejects.toThrow();
  });
});

describe('cashin customer limits', () => {
  const limit = (document: string, json: object, key = merchant.sandbox) =>
    sandbox('POST', '/v2/limits', { document_number: document, type: 'cashin', ...json }, key);
  const forPayer = (document: string, extra: Record<string, unknown> = {}) => pixBody({ payer: { document_number: document, name: 'Maria Silva' }, ...extra });

  it('amount: above the limit is refused and leaves nothing (no bank charge either); at the limit passes; a cashout limit does not apply', async () => {
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'amount', amount: 100 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/limits', { document_number: document, type: 'cashout', mechanism: 'amount', amount: 1 })).status).toBe(200);
    const above = forPayer(document, { amount: 100.01 });
    expect(await sandbox('POST', '/v2/pix', above)).toEqual(
      exceeded(`cashin limit exceeded for customer ${document}: 100.01 is above the limit of 100.00 per transaction`),
    );
    await expectNothingStoredFor(above.transaction_id);
    expect(await bankChargesOf(document)).toEqual([]);
    expect((await sandbox('POST', '/v2/pix', forPayer(document, { amount: 100 }))).status).toBe(201);
    expect((await production('POST', '/v2/pix', forPayer(document, { amount: 5000 }))).status).toBe(201); // production has no limit for it
  });

  it('applies a limit to the very next request', async () => {
    const document = freshCpf();
    expect((await sandbox('POST', '/v2/pix', forPayer(document, { amount: 50 }))).status).toBe(201);
    expect((await limit(document, { mechanism: 'amount', amount: 10 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/pix', forPayer(document, { amount: 50 }))).status).toBe(400);
  });

  it('quantity: the (limit+1)th of the day is refused and leaves nothing; the next day (by the test clock) counts again', async () => {
    const tenant = await newMerchant(system);
    const post = (path: string, json?: unknown) => sandbox('POST', path, json, tenant.sandbox);
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'quantity', quantity: 2 }, tenant.sandbox)).status).toBe(200);
    expect((await post('/v2/pix', forPayer(document))).status).toBe(201);
    expect((await post('/v2/pix', forPayer(document))).status).toBe(201);
    const third = forPayer(document);
    expect(await post('/v2/pix', third)).toEqual(
      exceeded(`cashin limit exceeded for customer ${document}: the limit of 2 transactions per day (Brasília time) is reached`),
    );
    await expectNothingStoredFor(third.transaction_id);
    expect(await bankChargesOf(document)).toEqual(['ATIVA', 'ATIVA']);
    expect((await post('/v2/sandbox/clock/advance', { days: 1 })).status).toBe(200);
    expect((await post('/v2/pix', forPayer(document))).status).toBe(201);
    expect((await post('/v2/pix', forPayer(document))).status).toBe(201);
    expect((await post('/v2/pix', forPayer(document))).status).toBe(400);
  });

  it('quantity under concurrency: six simultaneous charges with a limit of 3 give exactly three 201s, and the losers leave nothing payable at the bank', async () => {
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'quantity', quantity: 3 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, () => sandbox('POST', '/v2/pix', forPayer(document))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status !== 201)).toEqual(
      Array.from({ length: 3 }, () =>
        exceeded(`cashin limit exceeded for customer ${document}: the limit of 3 transactions per day (Brasília time) is reached`),
      ),
    );
    expect((await bankChargesOf(document)).filter((status) => status === 'ATIVA')).toHaveLength(3);
  });

  it('does not limit the journey 3 activation deposits', async () => {
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'quantity', quantity: 1 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/pix', forPayer(document))).status).toBe(201);
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const transactionId = `ativ-${Date.now().toString(36)}-${++sequence}`;
    const recurrence = await recurrences.create(
      recurrenceBody({ transaction_id: transactionId, debtor: { document_number: document, name: 'Maria Silva' }, activation_amount: 7.5 }),
    );
    expect(recurrence.status).toBe(201);
    expect((await recurrences.authorize(recurrence.body.recurrence_id)).body.journey).toBe('JOURNEY_3');
    const deposit = await eventually(
      () => sandbox('GET', `/v2/pix?transaction_id=${transactionId}-ativacao`),
      (answer) => answer.status === 200,
      WITHIN_SECONDS,
    );
    expect(deposit.body).toMatchObject({ status: 'PAID', amount: 7.5, payer: { document_number: document, name: 'Maria Silva' } });
  });
});
