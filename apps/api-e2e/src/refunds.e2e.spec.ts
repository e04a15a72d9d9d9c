/** @shared-system */
import { PixBankClient } from '@pixauto/bank';
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { pdfText } from '@pixauto/receipts/testing';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// Refunds of paid cash-in charges: POST /v2/transactions/refund (docs/decisions/refunds.md), the sandbox's own
// refunds and settlement, the bank's refunds behind them (BCB PUT /pix/{e2eid}/devolucao/{id}) and their events;
// their receipts, GET /v2/transactions/refund/receipt (every refusal of docs/decisions/receipts.md), from both
// providers.

const TOPIC = 'pixauto.payments.events.v1';
const SANDBOX_BANK_TOKEN = 'pixauto-sandbox';
let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;
let watcher: TopicWatcher;
let bank: PixBankClient;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
  watcher = new TopicWatcher(TOPIC);
  await watcher.start();
  bank = new PixBankClient(`http://127.0.0.1:${system.profile.bank}`, { token: SANDBOX_BANK_TOKEN });
});
afterAll(async () => {
  await bank?.close();
  await watcher?.stop();
});

const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const production = (method: string, path: string, json?: unknown, key = merchant.production) => call(system.profile.gateway, method, path, { key, json });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const TRANSACTION_NOT_FOUND = { status: 404, body: { message: 'Transaction not found!' } };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RTR_ID = /^D\d{8}\d{12}[A-Za-z0-9]{11}$/;

let sequence = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);

/** A charge of `amount` paid by the sandbox payer: its id, transaction_id and the e2e id the bank gave the payment. */
async function paidCharge(amount = 150.5, key = merchant.sandbox) {
  const created = await sandbox('POST', '/v2/pix', { transaction_id: fresh('pix'), amount, payer: { document_number: freshCpf(), name: 'Maria Silva' } }, key);
  expect(created.status).toBe(201);
  expect((await sandbox('POST', `/v2/sandbox/pix/${created.body.id}/pay`, undefined, key)).status).toBe(200);
  const [row] = await payments('SELECT e2e_id FROM pix_charges WHERE id = $1', [created.body.id]);
  return { id: created.body.id as number, transaction_id: created.body.transaction_id as string, e2e: row.e2e_id as string };
}

const refundEvents = (transactionId: string) =>
  watcher.seen.filter(
    (e) => e.envelope.type.startsWith('pix_charge.refund') && (e.envelope.data.charge as { transaction_id: string }).transaction_id === transactionId,
  );
const refundsOf = async (m: Merchant) => Number((await payments('SELECT count(*) AS n FROM pix_refunds WHERE account_id = $1', [m.accountId]))[0].n);

describe('POST /v2/transactions/refund', () => {
  it('refunds what is left of a paid charge by id: 201 PROCESSING, then REFUNDED once the bank liquidates it', async () => {
    const charge = await paidCharge();
    const refundId = fresh('refund');
    const answer = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: refundId });
    expect(answer).toMatchObject({ status: 201 });
    expect(answer.body).toEqual({
      id: expect.any(Number),
      refund_id: refundId,
      amount: 150.5,
      status: 'PROCESSING',
      transaction: { id: charge.id, transaction_id: charge.transaction_id },
      created_at: expect.stringMatching(ISO_UTC),
      refunded_at: null,
    });
    // The bank holds the refund of that payment, EM_PROCESSAMENTO.
    const pix = await bank.getReceivedPix(charge.e2e);
    expect(pix.devolucoes).toEqual([expect.objectContaining({ valor: '150.50', status: 'EM_PROCESSAMENTO', rtrId: expect.stringMatching(RTR_ID) })]);

    const settled = await sandbox('POST', `/v2/sandbox/refunds/${answer.body.id}/settle`);
    expect(settled).toMatchObject({ status: 200, body: { id: answer.body.id, status: 'REFUNDED', refunded_at: expect.stringMatching(ISO_UTC) } });
    expect((await bank.getReceivedPix(charge.e2e)).devolucoes).toEqual([expect.objectContaining({ status: 'DEVOLVIDO' })]);
    await watcher.waitFor(() => refundEvents(charge.transaction_id).length >= 2);
    const [requested, refunded] = refundEvents(charge.transaction_id).map((e) => e.envelope);
    expect(requested).toMatchObject({
      type: 'pix_charge.refund_requested',
      data: { refund: { id: answer.body.id, refund_id: refundId, amount_centavos: 15050, status: 'PROCESSING' } },
    });
    expect(refunded).toMatchObject({ type: 'pix_charge.refunded', data: { refund: { status: 'REFUNDED', rtr_id: expect.stringMatching(RTR_ID) } } });
  });

  it('takes several partial refunds by transaction_id up to the amount, then refuses what is beyond', async () => {
    const charge = await paidCharge(100);
    const refund = (amount?: number) => sandbox('POST', '/v2/transactions/refund', { transaction_id: charge.transaction_id, refund_id: fresh('part'), amount });
    expect(await refund(30)).toMatchObject({ status: 201, body: { amount: 30, status: 'PROCESSING' } });
    expect(await refund(70.01)).toEqual(invalid('body.amount must be at most what is left to refund of the transaction: 70.00'));
    expect(await refund()).toMatchObject({ status: 201, body: { amount: 70 } });
    expect(await refund(0.01)).toEqual(invalid('the transaction has already been refunded in full'));
    const pix = await bank.getReceivedPix(charge.e2e);
    expect(pix.devolucoes?.map((d) => d.valor)).toEqual(['30.00', '70.00']);
  });

  it('never refunds more than the charge under concurrent requests: 10 × 20.00 of 150.50, 7 accepted', async () => {
    const charge = await paidCharge(150.5);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('race'), amount: 20 })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.message)).toEqual(
      Array(3).fill('body.amount must be at most what is left to refund of the transaction: 10.50'),
    );
    const pix = await bank.getReceivedPix(charge.e2e);
    expect(pix.devolucoes).toHaveLength(7);
  });

  it('refuses each bad request with its message, and a refused request leaves no refund here or at the bank', async () => {
    const charge = await paidCharge();
    const before = await refundsOf(merchant);
    const refundId = fresh('bad');
    const post = (json: unknown) => sandbox('POST', '/v2/transactions/refund', json);
    expect(await post({ refund_id: refundId })).toEqual(invalid('one of id, transaction_id is required'));
    expect(await post({ id: charge.id, transaction_id: charge.transaction_id, refund_id: refundId })).toEqual(
      invalid('please provide only one of id, transaction_id'),
    );
    expect(await post({ id: charge.id })).toEqual(invalid('body.refund_id is a required field'));
    expect(await post({ id: charge.id, refund_id: 'x'.repeat(36) })).toEqual(invalid('body.refund_id must be a string of at most 35 characters'));
    expect(await post({ id: charge.id, refund_id: 42 })).toEqual(invalid('body.refund_id must be a string of at most 35 characters'));
    expect(await post({ id: 'abc', refund_id: refundId })).toEqual(invalid('body.id must be a positive integer'));
    expect(await post({ transaction_id: 7, refund_id: refundId })).toEqual(invalid('body.transaction_id must be a string'));
    expect(await post({ id: charge.id, refund_id: refundId, amount: -1 })).toEqual(invalid('body.amount must be a positive number'));
    expect(await post({ id: charge.id, refund_id: refundId, amount: 1.005 })).toEqual(invalid('body.amount must have at most 2 decimal places'));
    expect(await post({ id: charge.id, refund_id: refundId, reason: 'x' })).toEqual(invalid('`reason` is not a field of this endpoint'));
    expect(await post({ id: charge.id, refund_id: refundId, amount: 150.51 })).toEqual(
      invalid('body.amount must be at most what is left to refund of the transaction: 150.50'),
    );
    expect(await post({ id: 999999999, refund_id: refundId })).toEqual(TRANSACTION_NOT_FOUND);
    expect(await post({ transaction_id: 'never-created', refund_id: refundId })).toEqual(TRANSACTION_NOT_FOUND);
    // Another account's charge, and the other environment's, are not found.
    expect(await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: refundId }, other.sandbox)).toEqual(TRANSACTION_NOT_FOUND);
    expect(await production('POST', '/v2/transactions/refund', { id: charge.id, refund_id: refundId })).toEqual(TRANSACTION_NOT_FOUND);
    // A charge not paid yet.
    const pending = await sandbox('POST', '/v2/pix', { transaction_id: fresh('pending'), amount: 10, payer: { document_number: freshCpf(), name: 'Ana' } });
    expect(await post({ id: pending.body.id, refund_id: refundId })).toEqual(invalid('the transaction is PENDING: only a PAID transaction can be refunded'));
    expect(await refundsOf(merchant)).toBe(before);
    expect((await bank.getReceivedPix(charge.e2e)).devolucoes).toBeUndefined();
  });

  it('takes a refund_id once per account, on any of its charges', async () => {
    const [first, second] = [await paidCharge(), await paidCharge()];
    const refundId = fresh('once');
    expect((await sandbox('POST', '/v2/transactions/refund', { id: first.id, refund_id: refundId, amount: 1 })).status).toBe(201);
    expect(await sandbox('POST', '/v2/transactions/refund', { id: first.id, refund_id: refundId, amount: 1 })).toEqual(
      invalid('body.refund_id already exists'),
    );
    expect(await sandbox('POST', '/v2/transactions/refund', { id: second.id, refund_id: refundId, amount: 1 })).toEqual(
      invalid('body.refund_id already exists'),
    );
    expect((await bank.getReceivedPix(second.e2e)).devolucoes).toBeUndefined();
    // Another account may use the same one.
    const theirs = await paidCharge(10, other.sandbox);
    expect((await sandbox('POST', '/v2/transactions/refund', { id: theirs.id, refund_id: refundId }, other.sandbox)).status).toBe(201);
  });
});

describe('sandbox refunds', () => {
  it('POST /v2/sandbox/transactions/:id/refund starts a refund without refund_id; production answers 404', async () => {
    const charge = await paidCharge(40);
    const answer = await sandbox('POST', `/v2/sandbox/transactions/${charge.id}/refund`, { amount: 15 });
    expect(answer).toMatchObject({ status: 201, body: { refund_id: null, amount: 15, status: 'PROCESSING', transaction: { id: charge.id } } });
    expect(await sandbox('POST', `/v2/sandbox/transactions/${charge.id}/refund`, {})).toMatchObject({ status: 201, body: { amount: 25 } });
    expect((await production('POST', `/v2/sandbox/transactions/${charge.id}/refund`, {})).status).toBe(404);
    expect(await sandbox('POST', `/v2/sandbox/transactions/${charge.id}/refund`, { amount: 0 })).toEqual(invalid('body.amount must be a positive number'));
    expect(await sandbox('POST', '/v2/sandbox/transactions/abc/refund', {})).toEqual(invalid('params.id must be a positive integer'));
    expect(await sandbox('POST', '/v2/sandbox/transactions/999999999/refund', {})).toEqual(TRANSACTION_NOT_FOUND);
  });

  it('settle: unknown or another account’s refund is 404; production answers 404', async () => {
    const charge = await paidCharge(5);
    const refund = await sandbox('POST', `/v2/sandbox/transactions/${charge.id}/refund`, {});
    expect(await sandbox('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`, undefined, other.sandbox)).toEqual({
      status: 404,
      body: { message: 'Refund not found' },
    });
    expect(await sandbox('POST', '/v2/sandbox/refunds/999999999/settle')).toEqual({ status: 404, body: { message: 'Refund not found' } });
    expect((await production('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`)).status).toBe(404);
    // Settling twice answers the refund as it is.
    expect(await sandbox('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`)).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
    expect(await sandbox('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`)).toMatchObject({ status: 200, body: { status: 'REFUNDED' } });
  });

  it('the bank liquidates a refund by itself 60 seconds on, by the test clock too', async () => {
    const own = await newMerchant(system);
    const charge = await paidCharge(12, own.sandbox);
    const refund = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('clock') }, own.sandbox);
    expect(refund.body.status).toBe('PROCESSING');
    expect((await sandbox('POST', '/v2/sandbox/clock/advance', { hours: 1 }, own.sandbox)).status).toBe(200);
    await watcher.waitFor(() => refundEvents(charge.transaction_id).some((e) => e.envelope.type === 'pix_charge.refunded'), 20_000);
    expect((await bank.getReceivedPix(charge.e2e)).devolucoes).toEqual([expect.objectContaining({ status: 'DEVOLVIDO' })]);
  });
});

/** A new account whose charges go to `cashin_provider`, with its receipt providers as given (default: A and B enabled). */
async function account(cashinProvider: string, providers?: unknown): Promise<Merchant> {
  const opened = await admin(system, 'POST', '/admin/accounts', {
    name: 'Loja Recibos',
    cashin_provider: cashinProvider,
    ...(providers !== undefined && { providers }),
  });
  expect(opened.status).toBe(201);
  const key = await admin(system, 'POST', `/admin/accounts/${opened.body.account_id}/api-keys`, { environment: 'sandbox' });
  return { accountId: opened.body.account_id, sandbox: key.body.api_key, production: '' };
}

/** A paid charge of `m` refunded (by the merchant, refund_id given) and settled: the refund. */
async function settledRefund(m: Merchant, amount = 80.25) {
  const charge = await paidCharge(amount, m.sandbox);
  const refund = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('rcpt') }, m.sandbox);
  expect(refund.status).toBe(201);
  expect((await sandbox('POST', `/v2/sandbox/refunds/${refund.body.id}/settle`, undefined, m.sandbox)).body.status).toBe('REFUNDED');
  return { charge, refund: refund.body as { id: number; refund_id: string } };
}

/** receipt-service learns charges and refunds from Kafka, yet a merchant's read right after its own write sees it. */
const receipt = (query: string, key = merchant.sandbox) => sandbox('GET', `/v2/transactions/refund/receipt?${query}`, undefined, key);
const receiptError = (status: number, message: string, detail?: string) => ({ status, body: { message, ...(detail !== undefined && { detail }) } });

describe('GET /v2/transactions/refund/receipt', () => {
  it.each(['PROVIDER_A', 'PROVIDER_B'])('%s: the receipt by id, transaction_id or refund_id, a PDF whose text names the refund', async (provider) => {
    const m = await account(provider);
    const { charge, refund } = await settledRefund(m);
    const answer = await receipt(`id=${charge.id}`, m.sandbox);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      type: 'refund',
      provider,
      id: refund.id,
      refund_id: refund.refund_id,
      transaction: { id: charge.id, transaction_id: charge.transaction_id },
      filename: `refund-${refund.refund_id}.pdf`,
      content_type: 'application/pdf',
      pdf: expect.any(String),
    });
    const text = await pdfText(Buffer.from(answer.body.pdf, 'base64'));
    for (const expected of ['Comprovante de devolução Pix', `Emitido por ${provider}`, 'R$ 80,25', charge.e2e, 'Maria Silva']) expect(text).toContain(expected);
    expect((await receipt(`transaction_id=${charge.transaction_id}`, m.sandbox)).body).toMatchObject({ id: refund.id, provider });
    expect((await receipt(`refund_id=${refund.refund_id}`, m.sandbox)).body).toMatchObject({ id: refund.id, provider });
  });

  it('refuses the identifiers as 7.4 writes it', async () => {
    expect(await receipt('')).toEqual(invalid('one of refund_id, id, transaction_id is required!'));
    expect(await receipt('id=1&refund_id=x')).toEqual(invalid('please provide only one of refund_id, id, transaction_id'));
    expect(await receipt('id=1&transaction_id=x')).toEqual(invalid('please provide only one of refund_id, id, transaction_id'));
  });

  it('a key without access to transactions gets 403 before anything is read', async () => {
    const restricted = await newMerchant(system, { transactions: false });
    expect(await receipt('id=1', restricted.sandbox)).toEqual({ status: 403, body: { message: 'Access to transactions is forbidden for this API key!' } });
    expect(await receipt('', restricted.sandbox)).toEqual({ status: 403, body: { message: 'Access to transactions is forbidden for this API key!' } });
  });

  it("answers 404 for an unknown charge, another account's and the other environment's, and for a charge never refunded", async () => {
    const { charge } = await settledRefund(merchant, 3);
    await receipt(`id=${charge.id}`);
    expect(await receipt('id=999999999')).toEqual(receiptError(404, 'Transaction not found!'));
    expect(await receipt('transaction_id=never-created')).toEqual(receiptError(404, 'Transaction not found!'));
    expect(await receipt(`id=${charge.id}`, other.sandbox)).toEqual(receiptError(404, 'Transaction not found!'));
    expect(await production('GET', `/v2/transactions/refund/receipt?id=${charge.id}`)).toEqual(receiptError(404, 'Transaction not found!'));
    const unrefunded = await paidCharge(4);
    expect(await receipt(`id=${unrefunded.id}`)).toEqual(receiptError(404, 'No refund found for this transaction!'));
    expect(await receipt('refund_id=never-given')).toEqual(receiptError(404, 'No refund found for this transaction!'));
  });

  it('answers 409 while the bank has not liquidated the refund, and 409 with the refund_ids for a charge refunded twice', async () => {
    const charge = await paidCharge(10);
    const first = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('one'), amount: 4 });
    expect(await receipt(`id=${charge.id}`)).toEqual(receiptError(409, 'Receipt not available yet: this refund has no provider identifier.'));
    const second = await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('two'), amount: 6 });
    await sandbox('POST', `/v2/sandbox/refunds/${first.body.id}/settle`);
    expect(await receipt(`id=${charge.id}`)).toEqual(
      receiptError(409, 'This transaction has more than one refund. Pass refund_id to choose one.', `${first.body.refund_id},${second.body.refund_id}`),
    );
    expect((await receipt(`refund_id=${first.body.refund_id}`)).body).toMatchObject({ id: first.body.id });
    expect(await receipt(`refund_id=${second.body.refund_id}`)).toEqual(
      receiptError(409, 'Receipt not available yet: this refund has no provider identifier.'),
    );
  });

  it('refuses a charge of PROVIDER_C, and a provider the account has not enabled', async () => {
    const c = await account('PROVIDER_C');
    const { charge } = await settledRefund(c, 2);
    expect(await receipt(`id=${charge.id}`, c.sandbox)).toEqual(receiptError(400, 'Refund receipts are not supported for provider PROVIDER_C.'));
    const onlyA = await account('PROVIDER_B', [{ code: 'PROVIDER_A', credentials: { client_id: 'loja', client_secret: 'segredo' } }]);
    const b = await settledRefund(onlyA, 2);
    expect(await receipt(`id=${b.charge.id}`, onlyA.sandbox)).toEqual(receiptError(400, 'PROVIDER_B is not enabled for this account.'));
  });

  it.each([
    ['PROVIDER_A', 'Client authentication failed: the client secret is invalid.'],
    ['PROVIDER_B', 'The request signature does not match the API key secret.'],
  ])("%s: fetches live with the account's credentials; once they change, the next request fails with the bank's own words", async (provider, words) => {
    const m = await account(provider);
    const { charge } = await settledRefund(m, 5);
    expect((await receipt(`id=${charge.id}`, m.sandbox)).status).toBe(200);
    const changed = await admin(system, 'PATCH', `/admin/accounts/${m.accountId}`, {
      providers: [{ code: provider, credentials: { client_id: 'loja', client_secret: 'invalid' } }],
    });
    expect(changed.status).toBe(200);
    // The operator's write counts as the merchant's own: its very next receipt is fetched with the new credentials.
    expect(await receipt(`id=${charge.id}`, m.sandbox)).toEqual(receiptError(502, `Failed to retrieve the refund receipt from ${provider}.`, words));
  });

  it('answers a bounded 502 while the bank is down; a refund asked meanwhile is accepted and reaches the bank once it is back', async () => {
    const { charge } = await settledRefund(merchant, 6);
    await receipt(`id=${charge.id}`);
    const unrefunded = await paidCharge(7);
    await system.crash('bank-simulator');
    let accepted;
    try {
      const started = performance.now();
      const answer = await receipt(`id=${charge.id}`);
      expect(answer).toMatchObject({
        status: 502,
        body: { message: 'Failed to retrieve the refund receipt from PROVIDER_A.', detail: expect.stringContaining('PROVIDER_A') },
      });
      expect(performance.now() - started).toBeLessThan(10_000);
      accepted = await sandbox('POST', '/v2/transactions/refund', { id: unrefunded.id, refund_id: fresh('offline') });
      expect(accepted).toMatchObject({ status: 201, body: { status: 'PROCESSING', amount: 7 } });
    } finally {
      await system.restart('bank-simulator');
    }
    // The reconciler asks the bank, finds no such refund, and sends it: once.
    const pix = await eventually(
      () => bank.getReceivedPix(unrefunded.e2e),
      (found) => found.devolucoes !== undefined,
      { ...WITHIN_SECONDS, what: 'the refund at the bank' },
    );
    expect(pix.devolucoes).toEqual([expect.objectContaining({ valor: '7.00', status: 'EM_PROCESSAMENTO' })]);
  });
});

describe('payouts: the receipt of a completed payout, and one sent back by the receiving bank', () => {
  const alnum = () => `DEV${process.pid}${Date.now().toString(36)}${++sequence}`.replace(/[^A-Za-z0-9]/g, '');
  /** A payout of `amount` the sandbox's bank completed at once (before it would by itself): its id and transaction_id. */
  async function completedPayout(amount = 120, key = merchant.sandbox) {
    const created = await sandbox(
      'POST',
      '/v2/payout/pix',
      { transaction_id: fresh('saque'), amount, name: 'Maria Silva', document_number: freshCpf(), pix_key: 'maria@example.com' },
      key,
    );
    expect(created.status).toBe(201);
    expect((await sandbox('POST', `/v2/sandbox/payouts/${created.body.id}/status`, { status: 1 }, key)).body.status).toBe(1);
    return { id: created.body.id as number, transaction_id: created.body.transaction_id as string };
  }
  const withdrawals = (path: string, key = merchant.sandbox) => sandbox('GET', `/v2/withdrawals/${path}`, undefined, key);

  it('GET /v2/withdrawals/receipt: the PDF proving a completed payout was paid, by id or transaction_id', async () => {
    const payout = await completedPayout(120);
    const answer = await withdrawals(`receipt?id=${payout.id}`);
    expect(answer).toEqual({
      status: 200,
      body: {
        type: 'payout',
        provider: 'PROVIDER_A',
        id: payout.id,
        transaction_id: payout.transaction_id,
        filename: `payout-${payout.transaction_id}.pdf`,
        content_type: 'application/pdf',
        pdf: expect.any(String),
      },
    });
    const text = await pdfText(Buffer.from(answer.body.pdf, 'base64'));
    for (const expected of ['Comprovante de Pix enviado', 'Emitido por PROVIDER_A', 'R$ 120,00', 'Chave Pix: maria@example.com'])
      expect(text).toContain(expected);
    expect((await withdrawals(`receipt?transaction_id=${payout.transaction_id}`)).body).toMatchObject({ id: payout.id });
  });

  it('GET /v2/withdrawals/receipt refuses what it cannot answer', async () => {
    expect(await withdrawals('receipt')).toEqual(invalid('one of id, transaction_id is required!'));
    expect(await withdrawals('receipt?id=1&transaction_id=x')).toEqual(invalid('please provide only one of id, transaction_id'));
    expect(await withdrawals('receipt?id=999999999')).toEqual(receiptError(404, 'Payout not found!'));
    const held = await sandbox('POST', '/v2/payout/pix', {
      transaction_id: fresh('held'),
      amount: 3,
      name: 'Maria Silva',
      document_number: freshCpf(),
      pix_key: 'maria@example.com',
    });
    await sandbox('POST', `/v2/sandbox/payouts/${held.body.id}/status`, { status: 4 });
    expect(await withdrawals(`receipt?id=${held.body.id}`)).toEqual(receiptError(409, 'Receipt not available yet: the payout is not completed.'));
    const payout = await completedPayout(5);
    await withdrawals(`receipt?id=${payout.id}`);
    expect(await withdrawals(`receipt?id=${payout.id}`, other.sandbox)).toEqual(receiptError(404, 'Payout not found!'));
    const restricted = await newMerchant(system, { transactions: false });
    for (const path of ['receipt?id=1', 'refund/receipt?id=1'])
      expect(await withdrawals(path, restricted.sandbox)).toEqual({ status: 403, body: { message: 'Access to transactions is forbidden for this API key!' } });
  });

  it('a payout sent back shows its refund_id, and its receipt is GET /v2/withdrawals/refund/receipt (never the charges’ route)', async () => {
    const payout = await completedPayout(200);
    const refundId = alnum();
    const returned = await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/return`, { amount: 50, refund_id: refundId });
    expect(returned).toMatchObject({ status: 200, body: { id: payout.id, status: 1, refund_id: refundId } });
    expect((await sandbox('GET', `/v2/withdrawals?id=${payout.id}`)).body.refund_id).toBe(refundId);

    const answer = await withdrawals(`refund/receipt?refund_id=${refundId}`);
    expect(answer).toEqual({
      status: 200,
      body: {
        type: 'refund',
        provider: 'PROVIDER_A',
        id: expect.any(Number),
        refund_id: refundId,
        transaction: { id: payout.id, transaction_id: payout.transaction_id },
        filename: `refund-${refundId}.pdf`,
        content_type: 'application/pdf',
        pdf: expect.any(String),
      },
    });
    const text = await pdfText(Buffer.from(answer.body.pdf, 'base64'));
    for (const expected of ['Comprovante de devolução Pix', 'R$ 50,00']) expect(text).toContain(expected);
    expect((await withdrawals(`refund/receipt?transaction_id=${payout.transaction_id}`)).body).toMatchObject({ refund_id: refundId });
    expect(await receipt(`refund_id=${refundId}`)).toEqual(
      receiptError(400, 'This refund belongs to a payout. Use GET /v2/withdrawals/refund/receipt instead.'),
    );

    // A second return, named by the bank: the payout now has two, so its id alone is ambiguous.
    const second = await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/return`, {});
    expect(second.body.refund_id).toMatch(/^D\d{20}[A-Za-z0-9]{11}$/);
    expect(await withdrawals(`refund/receipt?id=${payout.id}`)).toEqual(
      receiptError(409, 'This payout has more than one refund. Pass refund_id to choose one.', `${refundId},${second.body.refund_id}`),
    );
  });

  it('refuses a return the sandbox bank could not make, and a charge refund asked on the payouts’ route', async () => {
    const held = await sandbox('POST', '/v2/payout/pix', {
      transaction_id: fresh('held'),
      amount: 3,
      name: 'Maria Silva',
      document_number: freshCpf(),
      pix_key: 'maria@example.com',
    });
    await sandbox('POST', `/v2/sandbox/payouts/${held.body.id}/status`, { status: 4 });
    expect(await sandbox('POST', `/v2/sandbox/payouts/${held.body.id}/return`, {})).toEqual(
      invalid('the payout is processing (4): only a completed payout can be returned'),
    );
    const payout = await completedPayout(10);
    expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/return`, { amount: 10.01 })).toEqual(
      invalid('body.amount must be at most what is left to return of the payout: 10.00'),
    );
    expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/return`, { refund_id: 'not-alnum' })).toEqual(
      invalid('body.refund_id must be 1 to 35 letters and digits'),
    );
    expect((await production('POST', `/v2/sandbox/payouts/${payout.id}/return`, {})).status).toBe(404);
    const chargeRefundId = alnum();
    const charge = await paidCharge(2);
    expect((await sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: chargeRefundId })).status).toBe(201);
    expect(await sandbox('POST', `/v2/sandbox/payouts/${payout.id}/return`, { refund_id: chargeRefundId })).toEqual(invalid('body.refund_id already exists'));
    expect(await withdrawals(`refund/receipt?refund_id=${chargeRefundId}`)).toEqual(
      receiptError(400, 'This refund belongs to a transaction. Use GET /v2/transactions/refund/receipt instead.'),
    );
  });
});
