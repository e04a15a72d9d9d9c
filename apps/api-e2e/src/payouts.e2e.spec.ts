/** @shared-system */
import { call } from './support/http';
import { freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { SeenEvent, TopicWatcher } from './support/kafka';
import { RunningSystem, sharedSystem } from './support/running-system';

// Payouts (cash-out): POST /v2/payout/pix and POST /v2/payout, the payout record, its status
// codes (docs/decisions/payouts.md), the sandbox's moves and the cashout customer limits (docs/decisions/limits.md).

const TOPIC = 'pixauto.payouts.events.v1';
let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;
let watcher: TopicWatcher;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
  watcher = new TopicWatcher(TOPIC);
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
});

const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const production = (method: string, path: string, json?: unknown, key = merchant.production) => call(system.profile.gateway, method, path, { key, json });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const E2E_ID = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;

let sequence = 0;
const txid = () => `saque-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const toKey = (extra: object = {}) => ({
  transaction_id: txid(),
  amount: 150.5,
  name: 'Maria Silva',
  document_number: freshCpf(),
  pix_key: 'maria@example.com',
  ...extra,
});
const toAccount = (extra: object = {}) => ({
  transaction_id: txid(),
  amount: 99.9,
  name: 'Padaria Pão Quente, Ltda.',
  document_number: '11222333000181',
  bank: { ispb: '60701190', account_agency: '0001', account_number: '12345-6' },
  ...extra,
});
const eventsOf = (id: number): SeenEvent[] =>
  watcher.seen.filter((e) => e.envelope.tenant.account_id === merchant.accountId && (e.envelope.data.payout as { id: number }).id === id);

/** A refused request leaves nothing: no event, no row, no outbox message (and so nothing for the bank to pay). */
async function expectNothingStoredFor(transactionId: string) {
  const prefix = system.profile.databasePrefix;
  const [events] = await queryService(prefix, 'payments', `SELECT count(*)::int AS n FROM events WHERE data->'payout'->>'transaction_id' = $1`, [
    transactionId,
  ]);
  const [rows] = await queryService(prefix, 'payments', 'SELECT count(*)::int AS n FROM payouts WHERE transaction_id = $1', [transactionId]);
  const [outbox] = await queryService(prefix, 'payments', `SELECT count(*)::int AS n FROM outbox WHERE payload->'data'->'payout'->>'transaction_id' = $1`, [
    transactionId,
  ]);
  expect([events.n, rows.n, outbox.n]).toEqual([0, 0, 0]);
}

describe('POST /v2/payout/pix', () => {
  it('answers 201 with the payout record, status 0', async () => {
    const body = toKey({ webhook: 'https://shop.example.com/payouts' });
    const answer = await sandbox('POST', '/v2/payout/pix', body);
    expect(answer).toEqual({
      status: 201,
      body: {
        id: expect.any(Number),
        transaction_id: body.transaction_id,
        name: 'Maria Silva',
        document_number: body.document_number,
        document_type: 'CPF',
        currency: 'BRL',
        amount: 150.5,
        status: 0,
        bank: { type: 'PIX', bank_name: null, ispb: null, account_agency: null, account_number: null },
        webhook: 'https://shop.example.com/payouts',
        created_at: expect.stringMatching(ISO_UTC),
      },
    });
  });

  it('is settled by the bank: 0 → 4 → 1 within seconds, with paid_at, e2e, psp_id and the name and bank the bank gave', async () => {
    const { body } = await sandbox('POST', '/v2/payout/pix', toKey({ name: 'João da Silva' }));
    await watcher.waitFor(() => eventsOf(body.id).some((e) => e.envelope.data.to === 1), 20_000);
    const changes = eventsOf(body.id).filter((e) => e.envelope.type === 'payout.status_changed');
    expect(changes.map((e) => [e.envelope.data.from, e.envelope.data.to])).toEqual([
      [0, 4],
      [4, 1],
    ]);
    const done = changes[1].envelope.data.payout as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(done).toMatchObject({
      status: 1,
      name: 'JOÃO DA SILVA',
      e2e: expect.stringMatching(E2E_ID),
      psp_id: expect.any(String),
      paid_at: expect.stringMatching(ISO_UTC),
    });
    expect(done.bank).toMatchObject({ type: 'PIX', bank_name: expect.any(String), ispb: expect.stringMatching(/^\d{8}$/) });
    expect(eventsOf(body.id)[0].key).toBe(`payout:${merchant.accountId}:sandbox:${body.id}`);
  });

  it('pays an account too, and a CNPJ is a CNPJ', async () => {
    const answer = await production('POST', '/v2/payout/pix', toAccount());
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ document_type: 'CNPJ', bank: { type: 'PIX', ispb: '60701190', account_agency: '0001', account_number: '12345-6' } });
  });

  it('is rejected (3) when the bank does not know the key, with the reason on the event', async () => {
    const { body } = await sandbox('POST', '/v2/payout/pix', toKey({ pix_key: 'naoexiste@example.com' }));
    await watcher.waitFor(() => eventsOf(body.id).some((e) => e.envelope.data.to === 3), 20_000);
    const rejected = eventsOf(body.id).find((e) => e.envelope.data.to === 3)!;
    expect(rejected.envelope.data).toMatchObject({ from: 0, reason: expect.any(String) });
  });

  it.each([
    [{ transaction_id: undefined }, 'body.transaction_id is a required field'],
    [{ transaction_id: 12 }, 'body.transaction_id must be a string'],
    [{ transaction_id: 'x'.repeat(36) }, 'transaction_id must be at most 35 characters'],
    [{ amount: undefined }, 'body.amount is a required field'],
    [{ amount: 0 }, 'body.amount must be a positive number'],
    [{ amount: -5 }, 'body.amount must be a positive number'],
    [{ amount: '10' }, 'body.amount must be a positive number'],
    [{ amount: 1.005 }, 'body.amount must have at most 2 decimal places'],
    [{ amount: 10000000000 }, 'body.amount must be at most 9999999999.99'],
    [{ name: undefined }, 'body.name is a required field'],
    [{ name: 'x'.repeat(101) }, 'body.name must be a string of at most 100 characters'],
    [{ document_number: undefined }, 'body.document_number is a required field'],
    [{ document_number: '52998224724' }, 'body.document_number is invalid'],
    [{ document_number: '529.982.247-25' }, 'body.document_number is invalid'],
    [{ pix_key: 'not a key' }, 'body.pix_key must be a Pix key: a CPF, a CNPJ, an e-mail, a phone as +55 and digits, or a random key (UUID)'],
    [{ pix_key: undefined }, 'one of pix_key, bank is required'],
    [{ bank: { ispb: '60701190', account_agency: '1', account_number: '1' } }, 'please provide only one of pix_key, bank'],
    [{ pix_key: undefined, bank: 'itau' }, 'body.bank must be an object'],
    [{ pix_key: undefined, bank: { ispb: '6070119', account_agency: '1', account_number: '1' } }, 'body.bank.ispb must be exactly 8 digits'],
    [{ pix_key: undefined, bank: { account_agency: '1', account_number: '1' } }, 'body.bank.ispb is a required field'],
    [{ pix_key: undefined, bank: { ispb: '60701190', account_agency: '12345', account_number: '1' } }, 'body.bank.account_agency must be 1 to 4 digits'],
    [
      { pix_key: undefined, bank: { ispb: '60701190', account_agency: '1', account_number: 'abc' } },
      'body.bank.account_number must be 1 to 20 digits, a hyphen and a check digit allowed',
    ],
    [{ webhook: 'ftp://x' }, 'body.webhook must be a URL of at most 255 characters'],
  ])('refuses %j: %s, and stores nothing', async (change, message) => {
    const body = { ...toKey(), ...change };
    expect(await sandbox('POST', '/v2/payout/pix', body)).toEqual(invalid(message));
    if (typeof body.transaction_id === 'string') await expectNothingStoredFor(body.transaction_id);
  });

  it('refuses unknown fields, naming them', async () => {
    expect(await sandbox('POST', '/v2/payout/pix', { ...toKey(), foo: 1, bar: 2 })).toEqual(invalid('`foo, bar` is not a field of this endpoint'));
    expect(
      await sandbox('POST', '/v2/payout/pix', {
        ...toKey(),
        bank: { ispb: '60701190', account_agency: '1', account_number: '1', branch: 'x' },
        pix_key: undefined,
      }),
    ).toEqual(invalid('`bank.branch` is not a field of this endpoint'));
  });

  it('keeps transaction_id unique per tenant: a repeat is refused, other tenants and the other environment are free', async () => {
    const body = toKey();
    expect((await sandbox('POST', '/v2/payout/pix', body)).status).toBe(201);
    expect(await sandbox('POST', '/v2/payout/pix', { ...body, amount: 1 })).toEqual(invalid('body.transaction_id already exists'));
    expect((await production('POST', '/v2/payout/pix', body)).status).toBe(201);
    expect((await call(system.profile.sandbox, 'POST', '/v2/payout/pix', { key: other.sandbox, json: body })).status).toBe(201);
  });

  it('gives one 201 to eight identical concurrent creates', async () => {
    const body = toKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => sandbox('POST', '/v2/payout/pix', body)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.message)).toEqual(Array(7).fill('body.transaction_id already exists'));
  });

  it('refuses a read-only key', async () => {
    const readOnly = await newMerchant(system, { read_only: true });
    expect(await call(system.profile.sandbox, 'POST', '/v2/payout/pix', { key: readOnly.sandbox, json: toKey() })).toEqual({
      status: 403,
      body: { code: 2, message: 'Api Key is read-only!' },
    });
  });
});

describe('POST /v2/payout', () => {
  it('pays a bank account: 201 with status 0', async () => {
    const answer = await sandbox('POST', '/v2/payout', toAccount());
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 0, document_type: 'CNPJ', bank: { ispb: '60701190' } });
  });

  it('requires bank and takes no pix_key', async () => {
    const { bank: _bank, ...withoutBank } = toAccount();
    expect(await sandbox('POST', '/v2/payout', withoutBank)).toEqual(invalid('body.bank is a required field'));
    expect(await sandbox('POST', '/v2/payout', { ...toAccount(), pix_key: 'maria@example.com' })).toEqual(invalid('`pix_key` is not a field of this endpoint'));
  });
});

describe('POST /v2/sandbox/payouts/:id/status', () => {
  const created = async () => (await sandbox('POST', '/v2/payout/pix', toKey())).body;

  it.each([
    [2, 'canceled'],
    [3, 'rejected'],
  ])('moves a payout to %i (%s), and then it can no longer change', async (status, name) => {
    const payout = await created();
    const moved = await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: payout.id, status });
    expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status: 1 })).toEqual(
      invalid(`the payout is ${name} (${status}) and can no longer change`),
    );
  });

  it('completes a payout at once (1) with paid_at and e2e', async () => {
    const payout = await created();
    const moved = await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status: 1 });
    expect(moved.body).toMatchObject({ status: 1, paid_at: expect.stringMatching(ISO_UTC), e2e: expect.stringMatching(E2E_ID), psp_id: expect.any(String) });
  });

  it('refuses another status, answers 404 for unknown and foreign payouts, and is not on the production port', async () => {
    const payout = await created();
    for (const status of [0, 5, '1', null])
      expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status })).toEqual(
        invalid('body.status must be one of the following values: 1, 2, 3, 4'),
      );
    expect(await sandbox('POST', '/v2/sandbox/payouts/999999999/status', { status: 2 })).toEqual({ status: 404, body: { message: 'Payout not found' } });
    expect(await sandbox('POST', '/v2/sandbox/payouts/abc/status', { status: 2 })).toEqual({ status: 404, body: { message: 'Payout not found' } });
    expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status: 2 }, other.sandbox)).toEqual({
      status: 404,
      body: { message: 'Payout not found' },
    });
    expect(await production('POST', `/v2/sandbox/payouts/${payout.id}/status`, { status: 2 })).toEqual({ status: 404, body: { message: 'Route not found' } });
  });
});

describe('cashout customer limits', () => {
  const limit = (document: string, json: object) => sandbox('POST', '/v2/limits', { document_number: document, type: 'cashout', ...json });
  const exceeded = (message: string) => ({ status: 400, body: { type: 'LimitExceededError', message } });

  it('amount: above the limit is refused and leaves nothing; at the limit passes; a cashin limit does not apply', async () => {
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'amount', amount: 100 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/limits', { document_number: document, type: 'cashin', mechanism: 'amount', amount: 1 })).status).toBe(200);
    const above = toKey({ document_number: document, amount: 100.01 });
    expect(await sandbox('POST', '/v2/payout/pix', above)).toEqual(
      exceeded(`cashout limit exceeded for customer ${document}: 100.01 is above the limit of 100.00 per transaction`),
    );
    await expectNothingStoredFor(above.transaction_id);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document, amount: 100 }))).status).toBe(201);
    expect((await production('POST', '/v2/payout/pix', toKey({ document_number: document, amount: 5000 }))).status).toBe(201); // production has no limit
  });

  it('applies a limit to the very next request', async () => {
    const document = freshCpf();
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document, amount: 50 }))).status).toBe(201);
    expect((await limit(document, { mechanism: 'amount', amount: 10 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document, amount: 50 }))).status).toBe(400);
  });

  it('quantity: ten simultaneous payouts with a limit of 3 give exactly three 201s', async () => {
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'quantity', quantity: 3 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 10 }, () => sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(new Set(answers.filter((a) => a.status !== 201).map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify(exceeded(`cashout limit exceeded for customer ${document}: the limit of 3 transactions per day (Brasília time) is reached`))]),
    );
  });

  it('counts what came before the limit was set, and a rejected or cancelled payout gives its unit back', async () => {
    const document = freshCpf();
    const first = await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }));
    expect((await limit(document, { mechanism: 'quantity', quantity: 2 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }))).status).toBe(201);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }))).status).toBe(400);
    expect((await sandbox('POST', `/v2/sandbox/payouts/${first.body.id}/status`, { status: 2 })).status).toBe(200);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }))).status).toBe(201);
    expect((await sandbox('POST', '/v2/payout/pix', toKey({ document_number: document }))).status).toBe(400);
  });

  it('resets at midnight in Brasília: the sandbox day follows the test clock', async () => {
    const tenant = await newMerchant(system);
    const document = freshCpf();
    const post = (path: string, json: object) => call(system.profile.sandbox, 'POST', path, { key: tenant.sandbox, json });
    expect((await post('/v2/limits', { document_number: document, type: 'cashout', mechanism: 'quantity', quantity: 1 })).status).toBe(200);
    expect((await post('/v2/payout/pix', toKey({ document_number: document }))).status).toBe(201);
    expect((await post('/v2/payout/pix', toKey({ document_number: document }))).status).toBe(400);
    expect((await post('/v2/sandbox/clock/advance', { days: 1 })).status).toBe(200);
    expect((await post('/v2/payout/pix', toKey({ document_number: document }))).status).toBe(201);
    expect((await post('/v2/payout/pix', toKey({ document_number: document }))).status).toBe(400);
  });

  it('is exact across two instances of payments-service', async () => {
    const p = system.profile as typeof system.profile & { paymentsReplica?: number };
    const replicaPort = p.payments + 90;
    await system.startReplica('payments-service', { PORT: String(replicaPort), PAYMENTS_BANK_CALLBACK_PORT: String(replicaPort + 1) }, replicaPort);
    const document = freshCpf();
    expect((await limit(document, { mechanism: 'quantity', quantity: 3 })).status).toBe(200);
    // Both instances at once, straight over their TCP listeners, as two gateways would reach them.
    const { ClientProxyFactory, Transport } = await import('@nestjs/microservices');
    const { firstValueFrom } = await import('rxjs');
    const clients = [p.payments, replicaPort].map((port) => ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } }));
    try {
      const tenant = { accountId: merchant.accountId, environment: 'sandbox' };
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          firstValueFrom(
            clients[n % 2].send<{ status: number }>('payments.payouts.create-pix', {
              tenant,
              account: { name: 'Loja', wallet: true, cashin_provider: 'PROVIDER_A' },
              body: toKey({ document_number: document }),
            }),
          ),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
