/** @shared-system */
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { admin, freshCpf, Merchant } from './support/fixtures';
import { TopicWatcher } from './support/kafka';
import {
  brCodeFields,
  eventsOf,
  invalid,
  openAccount,
  RECURRENCE_NOT_FOUND,
  RECURRENCE_TOPIC,
  recurrenceBody,
  recurrenceClient,
  RecurrenceClient,
} from './support/recurrences';
import { RunningSystem, sharedSystem } from './support/running-system';

// The payer's side in the sandbox (docs/api/sandbox.md): journeys 2 and 3 by QR, refusal; and the recurrence events on
// Kafka (asyncapi.yaml).

let system: RunningSystem;
let merchant: Merchant;
let sandbox: RecurrenceClient;
let watcher: TopicWatcher;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await openAccount(system);
  sandbox = recurrenceClient(system, merchant, 'sandbox');
  watcher = new TopicWatcher(RECURRENCE_TOPIC);
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
});

const QRCODE = /^data:image\/png;base64,/;
const address = { street: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', zip_code: '01310100' };

async function created(overrides: Record<string, unknown> = {}, client = sandbox) {
  const answer = await client.create(recurrenceBody(overrides));
  expect(answer.status).toBe(201);
  return answer.body;
}

describe('journey 2: the payer authorizes by QR', () => {
  it('approves a CREATED recurrence: 200 APPROVED with JOURNEY_2, and GET agrees', async () => {
    const before = await created();
    const answer = await sandbox.authorize(before.recurrence_id);
    expect(answer).toEqual({ status: 200, body: { ...before, status: 'APPROVED', journey: 'JOURNEY_2', qrcode: expect.stringMatching(QRCODE) } });
    expect(await sandbox.get(before.recurrence_id)).toEqual(answer);
  });

  it('rejects: REJECTED with pix_copy_paste null and no qrcode, and GET agrees', async () => {
    const before = await created();
    const answer = await sandbox.reject(before.recurrence_id);
    const { qrcode: _qrcode, ...rest } = before;
    expect(answer).toEqual({ status: 200, body: { ...rest, status: 'REJECTED', pix_copy_paste: null } });
    expect(answer.body).not.toHaveProperty('qrcode');
    expect(await sandbox.get(before.recurrence_id)).toEqual(answer);
  });

  it('refuses to authorize a recurrence that is no longer CREATED, and changes nothing', async () => {
    const { recurrence_id: approved } = await created();
    await sandbox.authorize(approved);
    expect(await sandbox.authorize(approved)).toEqual(invalid('the recurrence is APPROVED: the payer can only answer a CREATED recurrence'));
    expect(await sandbox.reject(approved)).toEqual(invalid('the recurrence is APPROVED: the payer can only answer a CREATED recurrence'));
    expect((await sandbox.get(approved)).body).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_2' });

    const { recurrence_id: rejected } = await created();
    await sandbox.reject(rejected);
    expect(await sandbox.authorize(rejected)).toEqual(invalid('the recurrence is REJECTED: the payer can only answer a CREATED recurrence'));

    const { recurrence_id: cancelled } = await created();
    expect((await sandbox.update(cancelled, { status: 'CANCELLED' })).status).toBe(200);
    expect(await sandbox.authorize(cancelled)).toEqual(invalid('the recurrence is CANCELLED: the payer can only answer a CREATED recurrence'));
    expect((await sandbox.get(cancelled)).body.status).toBe('CANCELLED');
  });

  it('answers 404 "Recurrence not found" for an unknown recurrence or another account\'s', async () => {
    expect(await sandbox.authorize('00000000-0000-0000-0000-000000000000')).toEqual(RECURRENCE_NOT_FOUND);
    const { recurrence_id: id } = await created();
    const other = recurrenceClient(system, await openAccount(system), 'sandbox');
    expect(await other.authorize(id)).toEqual(RECURRENCE_NOT_FOUND);
    expect(await other.reject(id)).toEqual(RECURRENCE_NOT_FOUND);
    expect((await sandbox.get(id)).body.status).toBe('CREATED');
  });
});

describe('journey 3: authorization with the activation payment', () => {
  it('creates with activation_amount: 201 with activation {charge_id, amount}', async () => {
    const answer = await sandbox.create(recurrenceBody({ activation_amount: 0.29 }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'CREATED', journey: 'AWAITING_DEFINITION', activation: { charge_id: expect.any(String), amount: 0.29 } });
    expect(Object.keys(answer.body.activation).sort()).toEqual(['amount', 'charge_id']);
    const fields = brCodeFields(answer.body.pix_copy_paste);
    expect(fields.get('80')).toContain('br.gov.bcb.pix');
    expect(fields.get('26')).toContain('br.gov.bcb.pix');
  });

  it('authorizes with the activation paid: APPROVED with JOURNEY_3, and GET agrees', async () => {
    const before = await created({ activation_amount: 19.9 });
    const answer = await sandbox.authorize(before.recurrence_id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...before, status: 'APPROVED', journey: 'JOURNEY_3', qrcode: expect.stringMatching(QRCODE) });
    expect(await sandbox.get(before.recurrence_id)).toEqual(answer);
  });

  it('reaches the merchant as a paid Pix deposit <transaction_id>-ativacao, readable by transaction_id and by id', async () => {
    const transactionId = `ativ-${Date.now()}`;
    const before = await created({ transaction_id: transactionId, activation_amount: 19.9 });
    await sandbox.authorize(before.recurrence_id);
    const read = (query: string) => call(system.profile.sandbox, 'GET', `/v2/pix?${query}`, { key: merchant.sandbox });
    // payments-service learns the activation from the recurrence's events on Kafka, yet the very next read sees it.
    const deposit = await read(`transaction_id=${transactionId}-ativacao`);
    expect(deposit).toEqual({
      status: 200,
      body: {
        id: expect.any(Number),
        transaction_id: `${transactionId}-ativacao`,
        amount: 19.9,
        status: 'PAID',
        provider: 'PROVIDER_A',
        // the same object as a cash-in charge (POST /v2/pix): the recurrence's debtor pays, nothing left to pay
        payer: before.debtor,
        description: null,
        webhook: null,
        pix_copy_paste: null,
        expires_at: expect.stringMatching(/Z$/),
        created_at: expect.stringMatching(/Z$/),
        paid_at: expect.stringMatching(/Z$/),
        dispute: null,
      },
    });
    expect(await read(`id=${deposit.body.id}`)).toEqual(deposit);
    expect(await read('transaction_id=unknown-ativacao')).toEqual({ status: 404, body: { message: 'Pix charge not found' } });
    expect(await read('')).toEqual(invalid('one of id, transaction_id is required'));
    expect(await read(`id=${deposit.body.id}&transaction_id=x`)).toEqual(invalid('please provide only one of id, transaction_id'));
    expect(await read('id=abc')).toEqual(invalid('query.id must be a positive integer'));
  });

  it('an activation that expires unpaid voids the code, and the recurrence can no longer be authorized', async () => {
    const before = await created({ activation_amount: 10, activation_expires_in: 1 });
    const current = await eventually(
      () => sandbox.get(before.recurrence_id),
      (answer) => answer.body.pix_copy_paste === null,
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(current.body).toMatchObject({ status: 'CREATED', pix_copy_paste: null });
    expect(current.body).not.toHaveProperty('qrcode');
    expect(await sandbox.authorize(before.recurrence_id)).toEqual(
      invalid('the activation payment expired unpaid: this recurrence can no longer be authorized; cancel it and create a new one'),
    );
    expect((await sandbox.update(before.recurrence_id, { status: 'CANCELLED' })).body.status).toBe('CANCELLED');
  });
});

describe('the bank behind us', () => {
  it("answers a settlement refusal as a ProviderError with the bank's status and violations, and creates nothing", async () => {
    const transactionId = `badloc-${Date.now()}`;
    const answer = await sandbox.create(recurrenceBody({ transaction_id: transactionId, location_id: 999999999 }));
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ type: 'ProviderError', message: expect.any(String), provider_code: expect.any(String) });
    expect((await sandbox.create(recurrenceBody({ transaction_id: transactionId }))).status).toBe(201);
  });
});

describe('the sandbox payer routes', () => {
  it('answer 404 on the production port', async () => {
    const { recurrence_id: id } = await created({}, recurrenceClient(system, merchant));
    for (const action of ['authorize', 'reject']) {
      expect(await call(system.profile.gateway, 'POST', `/v2/sandbox/recurrences/${id}/${action}`, { key: merchant.production })).toEqual({
        status: 404,
        body: { message: 'Route not found' },
      });
    }
    expect((await recurrenceClient(system, merchant).get(id)).body.status).toBe('CREATED');
  });

  it('refuse a read-only sandbox key with 403, leaving the recurrence CREATED', async () => {
    const { recurrence_id: id } = await created();
    const issued = await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'sandbox', read_only: true });
    const readOnly = issued.body.api_key as string;
    const forbidden = { status: 403, body: { code: 2, message: 'Api Key is read-only!' } };
    expect(await call(system.profile.sandbox, 'POST', `/v2/sandbox/recurrences/${id}/authorize`, { key: readOnly })).toEqual(forbidden);
    expect(await call(system.profile.sandbox, 'POST', `/v2/sandbox/recurrences/${id}/reject`, { key: readOnly })).toEqual(forbidden);
    expect((await call(system.profile.sandbox, 'GET', `/v2/automatic-pix/recurrences/${id}`, { key: readOnly })).body.status).toBe('CREATED');
    expect(await eventsOf(system, id)).toEqual([{ type: 'recurrence.created', version: 1 }]);
  });
});

describe('recurrence events on Kafka', () => {
  const ofRecurrence = (id: string) => () =>
    watcher.seen.filter((event) => event.envelope.data.recurrence_id === id || event.envelope.stream_id.endsWith(`:${id}`));

  it('publishes creation, approval and cancellation keyed by the stream id, with the tenant', async () => {
    const document = freshCpf();
    const body = recurrenceBody({ debtor: { document_number: document, name: 'Maria Souza', email: 'maria@example.com', address } });
    const answer = await sandbox.create(body);
    const id = answer.body.recurrence_id;
    const authorized = await sandbox.authorize(id);
    expect(authorized.body.status).toBe('APPROVED');
    const cancelledAnswer = await sandbox.update(id, { status: 'CANCELLED' });
    expect(cancelledAnswer.body.status).toBe('CANCELLED');

    // The first cycle's charge lives in the same stream and may be issued between approval and cancellation, taking a
    // version of its own: the recurrence's events are checked in order, with the versions the event store gave them.
    const mine = () => ofRecurrence(id)().filter((event) => event.envelope.type.startsWith('recurrence.'));
    await watcher.waitFor(() => mine().length >= 3);
    const [createdEvent, approved, cancelled] = mine();
    const stored = (await eventsOf(system, id)).filter((event) => event.type.startsWith('recurrence.'));
    expect(stored.map((event) => event.type)).toEqual(['recurrence.created', 'recurrence.approved', 'recurrence.cancelled']);
    expect(stored.slice(0, 2).map((event) => event.version)).toEqual([1, 2]);
    expect(mine().map((event) => ({ type: event.envelope.type, version: event.envelope.version }))).toEqual(stored);
    for (const event of mine()) {
      expect(event.key).toBe(createdEvent.envelope.stream_id);
      expect(event.envelope.stream_id).toBe(createdEvent.envelope.stream_id);
      expect(event.envelope.tenant).toEqual({ account_id: merchant.accountId, environment: 'sandbox' });
    }
    expect(createdEvent.envelope.stream_id).toContain(id);
    // Each carries its change and its record: the recurrence as the API answered right after it (without the QR image).
    const withoutQrcode = ({ qrcode: _qrcode, ...recurrence }: Record<string, unknown>) => recurrence;
    expect(approved.envelope.data).toEqual({
      journey: 'JOURNEY_2',
      approved_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      recurrence: withoutQrcode(authorized.body),
    });
    expect(cancelled.envelope.data).toEqual({ recurrence: withoutQrcode(cancelledAnswer.body) });
  });

  it('carries the debtor email and address on the created event, though the API never echoes them', async () => {
    const document = freshCpf();
    const answer = await created(
      { debtor: { document_number: document, name: 'Maria Souza', email: 'maria@example.com', address } },
      recurrenceClient(system, merchant),
    );
    expect(answer.debtor).toEqual({ document_number: document, name: 'Maria Souza' });
    const mine = ofRecurrence(answer.recurrence_id);
    await watcher.waitFor(() => mine().length >= 1);
    expect(mine()[0].envelope).toMatchObject({
      type: 'recurrence.created',
      tenant: { account_id: merchant.accountId, environment: 'production' },
      data: {
        recurrence_id: answer.recurrence_id,
        transaction_id: answer.contract,
        debtor: { document_number: document, name: 'Maria Souza', email: 'maria@example.com', address },
        amount_centavos: 4990,
      },
    });
    expect(mine()[0].key).toBe(mine()[0].envelope.stream_id);
  });

  it('publishes a journey 3 approval with JOURNEY_3', async () => {
    const { recurrence_id: id } = await created({ activation_amount: 5 });
    await sandbox.authorize(id);
    const mine = ofRecurrence(id);
    await watcher.waitFor(() => mine().some((event) => event.envelope.type === 'recurrence.approved'));
    expect(mine().find((event) => event.envelope.type === 'recurrence.approved')?.envelope.data).toEqual({
      journey: 'JOURNEY_3',
      approved_on: expect.any(String),
      recurrence: expect.objectContaining({ recurrence_id: id, status: 'APPROVED', journey: 'JOURNEY_3' }),
    });
  });
});
