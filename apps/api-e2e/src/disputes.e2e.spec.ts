/** @shared-system */
import { Webhook } from 'standardwebhooks';
import { PixBankClient } from '@pixauto/bank';
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { RunningSystem, sharedSystem } from './support/running-system';
import { Received, WebhookReceiver } from './support/webhook-receiver';

// Disputes (MED) of the Pix a merchant received (docs/api/disputes.md, docs/decisions/disputes.md), through the
// gateway: the sandbox's payer's bank opens one, the merchant reads and defends it, the test clock moves its deadline
// and its conclusion, the bank returns the money as a devolução of natureza MED_* or releases it; the refusals; and
// a refund racing a MED return on one payment never gives back more than was paid. Each group has its own account,
// since the test clock is per account.

const SANDBOX_BANK_TOKEN = 'pixauto-sandbox';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RTR_ID = /^D\d{8}\d{12}[A-Za-z0-9]{11}$/;
const DAY_MS = 86_400_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

let system: RunningSystem;
let receiver: WebhookReceiver;
let bank: PixBankClient;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
  system = sharedSystem();
  bank = new PixBankClient(`http://127.0.0.1:${system.profile.bank}`, { token: SANDBOX_BANK_TOKEN });
});
afterAll(async () => {
  await bank?.close();
  await receiver?.stop();
});

let sequence = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const payments = (sql: string, params: unknown[]) => queryService(system.profile.databasePrefix, 'payments', sql, params);
const client = (m: Merchant) => ({
  sandbox: (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: m.sandbox, json }),
  production: (method: string, path: string, json?: unknown) => call(system.profile.gateway, method, path, { key: m.production, json }),
});
const advance = async (m: Merchant, body: { days?: number; hours?: number }) =>
  expect((await client(m).sandbox('POST', '/v2/sandbox/clock/advance', body)).status).toBe(200);

/** A charge of `amount` the sandbox payer paid, notifying `webhook`: its id, transaction_id and the payment's e2e id. */
async function paidCharge(m: Merchant, amount: number, webhook?: string) {
  const api = client(m);
  const created = await api.sandbox('POST', '/v2/pix', {
    transaction_id: fresh('pix'),
    amount,
    payer: { document_number: freshCpf(), name: 'Maria Silva' },
    ...(webhook && { webhook }),
  });
  expect(created.status).toBe(201);
  expect((await api.sandbox('POST', `/v2/sandbox/pix/${created.body.id}/pay`)).status).toBe(200);
  const [row] = await payments('SELECT e2e_id FROM pix_charges WHERE id = $1', [created.body.id]);
  return { id: created.body.id as number, transaction_id: created.body.transaction_id as string, e2e: row.e2e_id as string };
}

const evidence = (file_name: string, content_type: string, content: Buffer) => ({ file_name, content_type, content_base64: content.toString('base64') });
const disputeRows = async (m: Merchant) => Number((await payments('SELECT count(*) AS n FROM pix_disputes WHERE account_id = $1', [m.accountId]))[0].n);
const infractionOf = async (disputeId: number) =>
  (await payments('SELECT infraction_id FROM pix_disputes WHERE id = $1', [disputeId]))[0].infraction_id as string;
const period = () => {
  const now = Date.now();
  return `start=${encodeURIComponent(new Date(now - 30 * DAY_MS).toISOString())}&end=${encodeURIComponent(new Date(now + 400 * DAY_MS).toISOString())}`;
};

describe('the journey: opened, read, defended, concluded RETURNED in part, notified', () => {
  let merchant: Merchant;
  let other: Merchant;
  beforeAll(async () => {
    merchant = await newMerchant(system);
    other = await newMerchant(system);
  });

  it('goes from OPEN to DEFENDED to RETURNED with a MED_FRAUDE return, and the payment shows it', async () => {
    const api = client(merchant);
    const path = `/${fresh('journey')}`;
    const charge = await paidCharge(merchant, 150.5, receiver.url('ok', path.slice(1)));

    // The payer's bank opens a dispute: OPEN, the whole payment blocked, 3 days to defend on the test clock.
    const opened = await api.sandbox('POST', `/v2/sandbox/transactions/${charge.id}/dispute`, {
      reason: 'FRAUD',
      outcome: 'PARTIALLY_RETURNED',
      defence_days: 3,
      conclude_after_days: 5,
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({
      id: expect.any(Number),
      status: 'OPEN',
      reason: 'FRAUD',
      transaction: { id: charge.id, transaction_id: charge.transaction_id, amount: 150.5 },
      amount: 150.5,
      blocked_amount: 150.5,
      defence_deadline: expect.stringMatching(ISO_UTC),
      defence: null,
      return: null,
      opened_at: expect.stringMatching(ISO_UTC),
      closed_at: null,
    });
    const id = opened.body.id as number;
    expect(Date.parse(opened.body.defence_deadline) - Date.parse(opened.body.opened_at)).toBe(3 * DAY_MS);
    // The bank knows the infraction, on that payment.
    const infraction = await bank.getInfraction(await infractionOf(id));
    expect(infraction).toMatchObject({ endToEndId: charge.e2e, motivo: 'FRAUDE', valor: '150.50', status: 'ABERTA' });

    // Read by id, in the list (by period and status), and on the payment.
    expect(await api.sandbox('GET', `/v2/disputes/${id}`)).toEqual({ status: 200, body: opened.body });
    const listed = await api.sandbox('GET', `/v2/disputes?${period()}&status=OPEN`);
    expect(listed).toMatchObject({
      status: 200,
      body: { pagination: { current_page: 0, page_size: 100, total_items: 1, total_pages: 1 }, disputes: [opened.body] },
    });
    expect((await api.sandbox('GET', `/v2/disputes?${period()}&status=RETURNED`)).body.disputes).toEqual([]);
    expect((await api.sandbox('GET', `/v2/pix?id=${charge.id}`)).body.dispute).toEqual({ id, status: 'OPEN', returned_amount: 0 });
    // What the dispute holds is not the merchant's to refund.
    expect(await api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('r'), amount: 1 })).toEqual(
      invalid('body.amount must be at most what is left to refund of the transaction: 0.00 (150.50 is held by a dispute in progress)'),
    );

    // The defence: a text and two files; the files readable by this account only.
    const defended = await api.sandbox('POST', `/v2/disputes/${id}/defence`, {
      text: 'The customer received the goods; the signed delivery note is attached.',
      evidence: [evidence('nota.pdf', 'application/pdf', PDF), evidence('foto.png', 'image/png', PNG)],
    });
    expect(defended).toMatchObject({
      status: 200,
      body: {
        id,
        status: 'DEFENDED',
        defence: {
          text: 'The customer received the goods; the signed delivery note is attached.',
          evidence: [
            { id: expect.any(Number), file_name: 'nota.pdf', content_type: 'application/pdf', size_bytes: PDF.length },
            { id: expect.any(Number), file_name: 'foto.png', content_type: 'image/png', size_bytes: PNG.length },
          ],
          submitted_at: expect.stringMatching(ISO_UTC),
        },
      },
    });
    const [pdf] = defended.body.defence.evidence;
    expect(await api.sandbox('GET', `/v2/disputes/${id}/evidence/${pdf.id}`)).toMatchObject({
      status: 200,
      body: { id: pdf.id, file_name: 'nota.pdf', content_type: 'application/pdf', content_base64: PDF.toString('base64') },
    });
    expect(await client(other).sandbox('GET', `/v2/disputes/${id}/evidence/${pdf.id}`)).toMatchObject({ status: 404, body: { message: 'Dispute not found' } });
    expect(await client(other).sandbox('GET', `/v2/disputes/${id}`)).toMatchObject({ status: 404, body: { message: 'Dispute not found' } });
    expect(await api.production('GET', `/v2/disputes/${id}`)).toMatchObject({ status: 404, body: { message: 'Dispute not found' } });
    expect(await api.sandbox('GET', `/v2/disputes/${id}/evidence/999999999`)).toMatchObject({ status: 404, body: { message: 'Evidence not found' } });
    expect((await bank.getInfraction(await infractionOf(id))).status).toBe('DEFENDIDA');
    // One defence only.
    expect(await api.sandbox('POST', `/v2/disputes/${id}/defence`, { text: 'Again.' })).toEqual(
      invalid('a defence has already been sent for this dispute: only one is accepted'),
    );

    // Five days on the test clock: the bank concludes, returning half of the block as a devolução MED_FRAUDE.
    await advance(merchant, { days: 5 });
    const returned = await eventually(
      () => api.sandbox('GET', `/v2/disputes/${id}`),
      (answer) => answer.body.status === 'RETURNED',
      { timeoutMs: 20_000, what: 'the dispute RETURNED' },
    );
    expect(returned.body).toMatchObject({
      status: 'RETURNED',
      return: { amount: 75.25, e2e_id: expect.stringMatching(RTR_ID), natureza: 'MED_FRAUDE', returned_at: expect.stringMatching(ISO_UTC) },
      closed_at: expect.stringMatching(ISO_UTC),
    });
    const pix = await bank.getReceivedPix(charge.e2e);
    expect(pix.devolucoes).toEqual([
      expect.objectContaining({ rtrId: returned.body.return.e2e_id, valor: '75.25', natureza: 'MED_FRAUDE', status: 'DEVOLVIDO' }),
    ]);
    expect((await api.sandbox('GET', `/v2/pix?id=${charge.id}`)).body.dispute).toEqual({ id, status: 'RETURNED', returned_amount: 75.25 });
    // What is left after the return may be refunded, not a cent more.
    expect(await api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('r'), amount: 75.26 })).toEqual(
      invalid('body.amount must be at most what is left to refund of the transaction: 75.25'),
    );
    expect(await api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('r') })).toMatchObject({
      status: 201,
      body: { amount: 75.25 },
    });

    // Each step reached the charge's webhook, signed with the sandbox secret, showing the dispute.
    const secret = (await admin(system, 'GET', `/admin/accounts/${merchant.accountId}`)).body.sandbox_webhook_secret as string;
    const verified = (r: Received) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: { id: number; status: string } };
    await eventually(
      () => receiver.on(path).map((r) => r.json.type),
      (types) => types.includes('pix_charge.dispute_returned'),
      { timeoutMs: 20_000, what: 'the dispute webhooks' },
    );
    const disputeEvents = receiver
      .on(path)
      .map(verified)
      .filter((body) => body.type.startsWith('pix_charge.dispute_'));
    expect(disputeEvents.map((body) => [body.type, body.data.id, body.data.status])).toEqual([
      ['pix_charge.dispute_opened', id, 'OPEN'],
      ['pix_charge.dispute_defended', id, 'DEFENDED'],
      ['pix_charge.dispute_returned', id, 'RETURNED'],
    ]);
  });
});

describe('the deadline on the test clock, and a claim rejected', () => {
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await newMerchant(system);
  });

  it('refuses a defence once the deadline passed, then the bank rejects the claim and releases the money', async () => {
    const api = client(merchant);
    const charge = await paidCharge(merchant, 80);
    const opened = await api.sandbox('POST', `/v2/sandbox/transactions/${charge.id}/dispute`, {
      reason: 'OPERATIONAL_FLAW',
      outcome: 'REJECTED',
      amount: 30,
      defence_days: 1,
      conclude_after_days: 10,
    });
    expect(opened).toMatchObject({ status: 201, body: { status: 'OPEN', reason: 'OPERATIONAL_FLAW', amount: 30, blocked_amount: 30 } });
    // Refunds may take what the dispute does not hold.
    expect(await api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('r'), amount: 50.01 })).toEqual(
      invalid('body.amount must be at most what is left to refund of the transaction: 50.00 (30.00 is held by a dispute in progress)'),
    );
    await advance(merchant, { days: 1, hours: 1 });
    expect(await api.sandbox('POST', `/v2/disputes/${opened.body.id}/defence`, { text: 'Too late?' })).toEqual(
      invalid(`the deadline for a defence passed at ${opened.body.defence_deadline}: no defence is accepted any more`),
    );
    expect((await bank.getInfraction(await infractionOf(opened.body.id))).status).toBe('ABERTA');

    await advance(merchant, { days: 10 });
    const rejected = await eventually(
      () => api.sandbox('GET', `/v2/disputes/${opened.body.id}`),
      (answer) => answer.body.status === 'REJECTED',
      { timeoutMs: 20_000, what: 'the dispute REJECTED' },
    );
    expect(rejected.body).toMatchObject({ status: 'REJECTED', defence: null, return: null, closed_at: expect.stringMatching(ISO_UTC) });
    expect(await api.sandbox('POST', `/v2/disputes/${opened.body.id}/defence`, { text: 'Now?' })).toEqual(
      invalid('the dispute is REJECTED: a defence is accepted only while it is OPEN'),
    );
    expect((await bank.getReceivedPix(charge.e2e)).devolucoes ?? []).toEqual([]);
    // Released: the whole payment may be refunded again.
    expect(await api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('r') })).toMatchObject({ status: 201, body: { amount: 80 } });
  });
});

describe('refusals: each with its message, and a refused request leaves no dispute, file or infraction', () => {
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await newMerchant(system);
  });

  it('refuses bad sandbox openings and bad defences', async () => {
    const api = client(merchant);
    const charge = await paidCharge(merchant, 20);
    const pending = await api.sandbox('POST', '/v2/pix', { transaction_id: fresh('pending'), amount: 5, payer: { document_number: freshCpf(), name: 'Ana' } });
    const open = (id: unknown, json?: unknown) => api.sandbox('POST', `/v2/sandbox/transactions/${id}/dispute`, json);
    expect(await open(pending.body.id)).toEqual(invalid('the transaction is PENDING: only a PAID transaction can be disputed'));
    expect(await open(999999999)).toMatchObject({ status: 404, body: { message: 'Transaction not found!' } });
    expect(await open('abc')).toEqual(invalid('params.id must be a positive integer'));
    expect(await open(charge.id, { reason: 'BORED' })).toEqual(
      invalid('body.reason must be one of the following values: FRAUD, OPERATIONAL_FLAW, PIX_AUTOMATICO'),
    );
    expect(await open(charge.id, { outcome: 'MAYBE', defence_days: 0 })).toEqual(
      invalid(
        'body.outcome must be one of the following values: RETURNED, PARTIALLY_RETURNED, REJECTED. body.defence_days must be a whole number of days from 1 to 30',
      ),
    );
    expect(await open(charge.id, { amount: 20.01 })).toEqual(invalid('body.amount must be at most what was paid: 20.00'));
    expect(await open(charge.id, { why: 1 })).toEqual(invalid('`why` is not a field of this endpoint'));
    expect(await api.production('POST', `/v2/sandbox/transactions/${charge.id}/dispute`)).toMatchObject({ status: 404 });
    expect(await disputeRows(merchant)).toBe(0);

    const opened = await open(charge.id, { defence_days: 5 });
    expect(opened).toMatchObject({ status: 201, body: { status: 'OPEN', amount: 20, blocked_amount: 20 } });
    expect(await open(charge.id)).toEqual(invalid('the transaction already has a dispute in progress'));
    expect(await disputeRows(merchant)).toBe(1);

    const defend = (json: unknown, id: unknown = opened.body.id) => api.sandbox('POST', `/v2/disputes/${id}/defence`, json);
    expect(await defend({})).toEqual(invalid('body.text must be a non-empty string of at most 5000 characters'));
    expect(await defend({ text: 'x'.repeat(5001) })).toEqual(invalid('body.text must be a non-empty string of at most 5000 characters'));
    expect(await defend({ text: 'ok', note: 1 })).toEqual(invalid('`note` is not a field of this endpoint'));
    expect(await defend({ text: 'ok', evidence: [evidence('a.gif', 'image/gif', PNG)] })).toEqual(
      invalid('body.evidence[0].content_type must be one of the following values: application/pdf, image/png, image/jpeg'),
    );
    expect(await defend({ text: 'ok', evidence: [evidence('a.pdf', 'application/pdf', PNG)] })).toEqual(
      invalid('body.evidence[0] is not a application/pdf file: its content does not match its content_type'),
    );
    expect(await defend({ text: 'ok', evidence: [evidence('big.pdf', 'application/pdf', Buffer.concat([PDF, Buffer.alloc(200 * 1024)]))] })).toEqual(
      invalid('body.evidence[0] must be at most 200 KiB (204800 bytes)'),
    );
    expect(await defend({ text: 'ok', evidence: [{ file_name: 'a.pdf', content_type: 'application/pdf', content_base64: '!!' }] })).toEqual(
      invalid("body.evidence[0].content_base64 must be the file's bytes in base64"),
    );
    expect(await defend({ text: 'ok', evidence: Array(4).fill(evidence('a.pdf', 'application/pdf', PDF)) })).toEqual(
      invalid('body.evidence must be a list of at most 3 files'),
    );
    expect(await defend({ text: 'ok' }, 'abc')).toEqual(invalid('params.id must be a positive integer'));
    expect(await defend({ text: 'ok' }, 999999999)).toMatchObject({ status: 404, body: { message: 'Dispute not found' } });
    // None of those left a file, nor a defence at the bank.
    expect((await payments('SELECT count(*) AS n FROM dispute_evidence WHERE account_id = $1', [merchant.accountId]))[0].n).toBe('0');
    expect((await bank.getInfraction(await infractionOf(opened.body.id))).status).toBe('ABERTA');
    expect((await api.sandbox('GET', `/v2/disputes/${opened.body.id}`)).body.status).toBe('OPEN');

    expect(await api.sandbox('GET', '/v2/disputes')).toEqual(invalid('start and end are required'));
    expect(await api.sandbox('GET', `/v2/disputes?${period()}&status=LOST`)).toEqual(
      invalid('query.status must be one of the following values: OPEN, DEFENDED, RETURNED, REJECTED'),
    );
  });
});

describe('a merchant refund racing a MED return on one payment', () => {
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await newMerchant(system);
  });

  it('never gives back more than was paid, here or at the bank, whichever comes first', async () => {
    const api = client(merchant);
    // The refund leaves a little later on each payment, so that either may reach the payment's stream first.
    const delays = [0, 0, 15, 30, 60, 90, 120, 200];
    const charges = await Promise.all(delays.map(() => paidCharge(merchant, 100)));
    // Both at once on each payment: a dispute of the whole payment (to be returned whole) and a refund of all of it.
    const raced = await Promise.all(
      charges.map(async (charge, i) => {
        const [dispute, refund] = await Promise.all([
          api.sandbox('POST', `/v2/sandbox/transactions/${charge.id}/dispute`, {
            reason: 'OPERATIONAL_FLAW',
            outcome: 'RETURNED',
            defence_days: 1,
            conclude_after_days: 2,
          }),
          new Promise((resolve) => setTimeout(resolve, delays[i])).then(() =>
            api.sandbox('POST', '/v2/transactions/refund', { id: charge.id, refund_id: fresh('race') }),
          ),
        ]);
        return { charge, dispute, refund };
      }),
    );
    for (const { dispute, refund } of raced) {
      expect(dispute.status).toBe(201);
      // Whichever came second found nothing, or less, to take.
      if (refund.status === 201) expect(refund.body.amount + dispute.body.blocked_amount).toBe(100);
      else
        expect(refund).toEqual(
          invalid('body.amount must be at most what is left to refund of the transaction: 0.00 (100.00 is held by a dispute in progress)'),
        );
    }
    await advance(merchant, { days: 2 });
    for (const { charge, dispute } of raced) {
      const concluded = await eventually(
        () => api.sandbox('GET', `/v2/disputes/${dispute.body.id}`),
        (answer) => answer.body.status === 'RETURNED' || answer.body.status === 'REJECTED',
        { timeoutMs: 20_000, what: `dispute ${dispute.body.id} concluded` },
      );
      const returned = concluded.body.return?.amount ?? 0;
      expect(returned).toBe(dispute.body.blocked_amount);
      if (returned > 0) expect(concluded.body.return.natureza).toBe('MED_OPERACIONAL');
      const [row] = await payments(`SELECT coalesce(sum(amount_centavos), 0) AS refunded FROM pix_refunds WHERE charge_id = $1 AND status <> 'FAILED'`, [
        charge.id,
      ]);
      expect(Number(row.refunded) + Math.round(returned * 100)).toBe(10000);
      // The bank's side: every devolução of the payment together is the payment, never more.
      const devolucoes = (await bank.getReceivedPix(charge.e2e)).devolucoes ?? [];
      expect(devolucoes.reduce((sum, d) => sum + Math.round(Number(d.valor) * 100), 0)).toBe(10000);
    }
  });
});
