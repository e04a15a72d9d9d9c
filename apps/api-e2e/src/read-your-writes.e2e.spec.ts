/** @shared-system */
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { admin, cpf, freshCpf, Merchant } from './support/fixtures';
import { queryService } from './support/database';
import { openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// A merchant reads what its own earlier request was answered for, even where a follower of Kafka answers the read
// (docs/decisions/read-your-writes.md): every read below is asked once, straight after the write, never polled.

let system: RunningSystem;
let merchant: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await openAccount(system);
});
let sequence = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const payout = (overrides: Record<string, unknown> = {}) =>
  sandbox('POST', '/v2/payout/pix', {
    transaction_id: fresh('saque'),
    amount: 12.5,
    name: 'Maria Silva',
    document_number: freshCpf(),
    pix_key: 'maria@example.com',
    ...overrides,
  });
const period = () => {
  const utc = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return `start=${encodeURIComponent(utc(-120))}&end=${encodeURIComponent(utc(120))}`;
};

/** A charge of the sandbox payer's, paid, and a refund of it the merchant asked for. */
async function refunded(refundId: string, key = merchant.sandbox) {
  const charge = await sandbox(
    'POST',
    '/v2/pix',
    { transaction_id: fresh('pix'), amount: 20, payer: { document_number: freshCpf(), name: 'Maria Silva' } },
    key,
  );
  expect(charge.status).toBe(201);
  expect((await sandbox('POST', `/v2/sandbox/pix/${charge.body.id}/pay`, undefined, key)).status).toBe(200);
  const refund = await sandbox('POST', '/v2/transactions/refund', { id: charge.body.id, refund_id: refundId }, key);
  expect(refund).toMatchObject({ status: 201, body: { refund_id: refundId, status: 'PROCESSING' } });
  return { charge: charge.body, refund: refund.body };
}

describe('refund receipts (receipt-service follows the payments topic)', () => {
  it('a refund just created is known to its receipt at once: 409 until the bank liquidates it, never 404; the receipt right after the settlement', async () => {
    const refundId = fresh('rcpt');
    const { refund } = await refunded(refundId);
    expect(await sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refundId}`)).toEqual({
      status: 409,
      body: { message: 'Receipt not available yet: this refund has no provider identifier.' },
    });
    expect((await sandbox('POST', `/v2/sandbox/refunds/${refund.id}/settle`)).body.status).toBe('REFUNDED');
    expect(await sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refundId}`)).toMatchObject({
      status: 200,
      body: { id: refund.id, refund_id: refundId },
    });
  });

  it('a read whose follower cannot catch up in time is a 503 with Retry-After, not a wrong answer', async () => {
    const behind = await openAccount(system); // its own: its reads wait for this charge's events from here on
    const refundId = fresh('behind');
    const { charge, refund } = await refunded(refundId, behind.sandbox);
    expect((await sandbox('POST', `/v2/sandbox/refunds/${refund.id}/settle`, undefined, behind.sandbox)).status).toBe(200);
    expect((await sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refundId}`, undefined, behind.sandbox)).status).toBe(200);
    // As if receipt-service's follower had not applied the charge's last events: what it recorded is set back.
    const setBack = await queryService(
      system.profile.databasePrefix,
      'receipt',
      `UPDATE follower_positions SET version = 1 WHERE topic = 'pixauto.payments.events.v1' AND stream_id LIKE '%:' || $1 RETURNING stream_id`,
      [charge.transaction_id],
    );
    expect(setBack).toHaveLength(1);
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/transactions/refund/receipt?refund_id=${refundId}`, {
      headers: { authorization: behind.sandbox },
    });
    expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }).toEqual({
      status: 503,
      retryAfter: '1',
      body: { message: 'Service temporarily unavailable, retry later' },
    });
    expect(performance.now() - started).toBeGreaterThan(2500);
    // Another merchant's reads do not wait for these writes.
    expect(await sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refundId}`)).toEqual({
      status: 404,
      body: { message: 'No refund found for this transaction!' },
    });
  });
});

describe("the operator's writes to an account (receipt-service follows the accounts topic)", () => {
  it("the banks the operator changes are what the account's very next receipt sees; a follower that cannot catch up is a 503", async () => {
    const own = await openAccount(system);
    const refundId = fresh('ops');
    const { refund } = await refunded(refundId, own.sandbox);
    expect((await sandbox('POST', `/v2/sandbox/refunds/${refund.id}/settle`, undefined, own.sandbox)).status).toBe(200);
    const receipt = () => sandbox('GET', `/v2/transactions/refund/receipt?refund_id=${refundId}`, undefined, own.sandbox);
    expect((await receipt()).status).toBe(200);
    const onlyB = [{ code: 'PROVIDER_B', credentials: { client_id: 'loja', client_secret: 'segredo' } }];
    expect((await admin(system, 'PATCH', `/admin/accounts/${own.accountId}`, { providers: onlyB })).status).toBe(200);
    expect(await receipt()).toEqual({ status: 400, body: { message: 'PROVIDER_A is not enabled for this account.' } });
    // As if receipt-service's follower had not applied the account's last change: what it recorded is set back.
    const setBack = await queryService(
      system.profile.databasePrefix,
      'receipt',
      `UPDATE follower_positions SET version = version - 1 WHERE topic = 'pixauto.accounts.events.v1' AND stream_id = 'account:' || $1 RETURNING stream_id`,
      [own.accountId],
    );
    expect(setBack).toHaveLength(1);
    expect(await receipt()).toEqual({ status: 503, body: { message: 'Service temporarily unavailable, retry later' } });
  });
});

describe('payout lookups and receipts (payout-query-service and receipt-service follow the payouts topic)', () => {
  it('a payout just created is found by id, transaction_id, period and customer, and its receipt knows it', async () => {
    const documentNumber = freshCpf();
    const created = await payout({ document_number: documentNumber });
    expect(created).toMatchObject({ status: 201, body: { status: 0 } });
    expect(await sandbox('GET', `/v2/withdrawals?id=${created.body.id}`)).toMatchObject({ status: 200, body: { id: created.body.id } });
    expect(await sandbox('GET', `/v2/withdrawals?transaction_id=${created.body.transaction_id}`)).toMatchObject({ status: 200, body: { id: created.body.id } });
    const inPeriod = await sandbox('GET', `/v2/withdrawals/period?${period()}`);
    expect(inPeriod.body.data.map((p: { id: number }) => p.id)).toContain(created.body.id);
    expect(await sandbox('GET', `/v2/withdrawals/customer?document_number=${documentNumber}`)).toMatchObject({
      status: 200,
      body: { total: 1, data: [expect.objectContaining({ id: created.body.id })] },
    });
    // Known to receipt-service too: not completed yet (409), or completed by the bank meanwhile; never 'Payout not found!'.
    expect((await sandbox('GET', `/v2/withdrawals/receipt?id=${created.body.id}`)).status).not.toBe(404);
  });

  it('a sandbox status change is seen by the very next lookups and receipt', async () => {
    const documentNumber = freshCpf();
    const created = await payout({ document_number: documentNumber });
    // Moved before the bank settles it by itself (a second and a half after it was sent).
    const paid = await sandbox('POST', `/v2/sandbox/payouts/${created.body.id}/status`, { status: 1 });
    expect(paid).toMatchObject({ status: 200, body: { id: created.body.id, status: 1 } });
    expect(await sandbox('GET', `/v2/withdrawals?id=${created.body.id}`)).toMatchObject({ status: 200, body: { id: created.body.id, status: 1 } });
    expect((await sandbox('GET', `/v2/withdrawals/period?${period()}&status=1`)).body.data.map((p: { id: number }) => p.id)).toContain(created.body.id);
    expect((await sandbox('GET', `/v2/withdrawals/customer?document_number=${documentNumber}`)).body.data).toEqual([
      expect.objectContaining({ id: created.body.id, status: 1 }),
    ]);
    expect(await sandbox('GET', `/v2/withdrawals/receipt?id=${created.body.id}`)).toMatchObject({ status: 200, body: { type: 'payout', id: created.body.id } });
  });
});

describe('what a follower makes of a write (payments-service, recurrence-service and the webhook dispatcher follow)', () => {
  it("the payer's authorization of a journey 3 recurrence: the deposit <transaction_id>-ativacao at once", async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const transactionId = fresh('ativ');
    const created = await recurrences.create(recurrenceBody({ transaction_id: transactionId, activation_amount: 9.9 }));
    expect(created.status).toBe(201);
    expect((await recurrences.authorize(created.body.recurrence_id)).body).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_3' });
    expect(await sandbox('GET', `/v2/pix?transaction_id=${transactionId}-ativacao`)).toMatchObject({
      status: 200,
      body: { transaction_id: `${transactionId}-ativacao`, amount: 9.9, status: 'PAID' },
    });
  });

  it("the payer's answer to a solicitation: the recurrence's status at once", async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    for (const [decision, status] of [
      ['ACCEPT', 'APPROVED'],
      ['REJECT', 'REJECTED'],
    ]) {
      const created = await recurrences.create(recurrenceBody());
      const recurrenceId = created.body.recurrence_id;
      const solicitation = await sandbox('POST', '/v2/automatic-pix/solicitations', {
        recurrence_id: recurrenceId,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        destination: { agency: '0001', account: '123456', document_number: cpf(123456789), ispb: '12345678' },
      });
      expect(solicitation.status).toBe(201);
      // The alert reaching the payer is the bank's doing, by itself: the payer can answer only then.
      await eventually(
        () => sandbox('GET', `/v2/automatic-pix/solicitations/${solicitation.body.solicitation_id}`),
        (a) => a.body.status === 'RECEIVED',
        WITHIN_SECONDS,
      );
      const answered = await sandbox('POST', `/v2/sandbox/solicitations/${solicitation.body.solicitation_id}/answer`, { decision });
      expect(answered.status).toBe(200);
      expect((await recurrences.get(recurrenceId)).body.status).toBe(status);
    }
  });

  it('the delivery log lists the webhook of an event at once', async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const created = await recurrences.create(recurrenceBody({ webhook: 'https://shop.example.com/recurrences' }));
    expect(created.status).toBe(201);
    const log = () => sandbox('GET', `/v2/webhooks/deliveries?resource_id=${created.body.recurrence_id}`);
    expect((await log()).body.deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(['recurrence.created']);
    expect((await recurrences.authorize(created.body.recurrence_id)).status).toBe(200);
    expect((await log()).body.deliveries.map((d: { event_type: string }) => d.event_type).sort()).toEqual(['recurrence.approved', 'recurrence.created']);
  });
});
