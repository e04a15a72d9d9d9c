/** @shared-system */
import { call } from './support/http';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { TopicWatcher } from './support/kafka';
import { RunningSystem, sharedSystem } from './support/running-system';

// POST and GET /v2/limits: docs/api/limits.md and docs/decisions/limits.md#setting-a-limit.

const TOPIC = 'pixauto.limits.events.v1';
let system: RunningSystem;
let merchant: Merchant;
let watcher: TopicWatcher;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  watcher = new TopicWatcher(TOPIC);
  await watcher.start();
});
afterAll(async () => {
  await watcher?.stop();
});

const setLimit = (json: unknown) => call(system.profile.gateway, 'POST', '/v2/limits', { key: merchant.production, json });
const getLimit = (query: string) => call(system.profile.gateway, 'GET', `/v2/limits${query}`, { key: merchant.production });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A refused request leaves nothing: no event in the store, no row in the read model, no outbox message. */
async function expectNothingStoredFor(document: string) {
  const events = await queryService(system.profile.databasePrefix, 'limits', `SELECT count(*)::int AS n FROM events WHERE data->>'document_number' = $1`, [
    document,
  ]);
  const rows = await queryService(system.profile.databasePrefix, 'limits', 'SELECT count(*)::int AS n FROM customer_limits WHERE document_number = $1', [
    document,
  ]);
  const outbox = await queryService(
    system.profile.databasePrefix,
    'limits',
    `SELECT count(*)::int AS n FROM outbox WHERE payload->'data'->>'document_number' = $1`,
    [document],
  );
  expect([events[0].n, rows[0].n, outbox[0].n]).toEqual([0, 0, 0]);
  expect((await getLimit(`?document_number=${document}&type=cashin`)).status).toBe(404);
}

describe('POST /v2/limits', () => {
  it('creates an amount limit and answers 200 with the limit object', async () => {
    const document = freshCpf();
    const answer = await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 150.5, details: 'KYC tier 1' });
    expect(answer).toEqual({
      status: 200,
      body: {
        document_number: document,
        type: 'cashin',
        mechanism: 'amount',
        amount: 150.5,
        details: 'KYC tier 1',
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
      },
    });
    expect(answer.body.created_at).toBe(answer.body.updated_at);
  });

  it('creates a quantity limit', async () => {
    const document = freshCpf();
    const answer = await setLimit({ document_number: document, type: 'cashout', mechanism: 'quantity', quantity: 10 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      document_number: document,
      type: 'cashout',
      mechanism: 'quantity',
      quantity: 10,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('updates the limit of the same document and type, keeping created_at', async () => {
    const document = freshCpf();
    const first = await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 100 });
    const second = await setLimit({ document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 3 });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      document_number: document,
      type: 'cashin',
      mechanism: 'quantity',
      quantity: 3,
      created_at: first.body.created_at,
      updated_at: expect.any(String),
    });
    expect(second.body.updated_at >= first.body.updated_at).toBe(true);
    expect((await getLimit(`?document_number=${document}&type=cashin`)).body).toEqual(second.body);
  });

  it('keeps cashin and cashout limits independent', async () => {
    const document = freshCpf();
    await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 50 });
    await setLimit({ document_number: document, type: 'cashout', mechanism: 'amount', amount: 70 });
    expect((await getLimit(`?document_number=${document}&type=cashin`)).body.amount).toBe(50);
    expect((await getLimit(`?document_number=${document}&type=cashout`)).body.amount).toBe(70);
  });

  it('publishes each change on Kafka, keyed by the limit, with amounts in centavos', async () => {
    const document = freshCpf();
    await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 99.99 });
    await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 120 });
    const mine = () => watcher.seen.filter((event) => event.envelope.data.document_number === document);
    await watcher.waitFor(() => mine().length >= 2);
    const [created, updated] = mine();
    expect(created.envelope).toMatchObject({
      type: 'customer_limit.created',
      version: 1,
      tenant: { account_id: merchant.accountId, environment: 'production' },
      data: { document_number: document, limit_type: 'cashin', mechanism: 'amount', amount_centavos: 9999, quantity: null },
    });
    expect(updated.envelope).toMatchObject({ type: 'customer_limit.updated', version: 2, data: { amount_centavos: 12000 } });
    expect(created.key).toBe(created.envelope.stream_id);
    expect(updated.key).toBe(created.key);
  });

  it('records nothing new when the same limit is set again', async () => {
    const document = freshCpf();
    const body = { document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 4 };
    const first = await setLimit(body);
    const again = await setLimit(body);
    expect(again.body).toEqual(first.body);
    const events = await queryService(system.profile.databasePrefix, 'limits', `SELECT count(*)::int AS n FROM events WHERE data->>'document_number' = $1`, [
      document,
    ]);
    expect(events[0].n).toBe(1);
  });

  it.each([0, -10, '10', null])('refuses amount %p: "body.amount must be a positive number"', async (amount) => {
    const document = freshCpf();
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount })).toEqual(
      invalid('body.amount must be a positive number'),
    );
    await expectNothingStoredFor(document);
  });

  it('refuses a missing amount under the amount mechanism', async () => {
    const document = freshCpf();
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount' })).toEqual(invalid('body.amount must be a positive number'));
    await expectNothingStoredFor(document);
  });

  it.each(['CASHIN', 'withdrawal', ''])('refuses type %p: "body.type must be one of cashin or cashout"', async (type) => {
    const document = freshCpf();
    expect(await setLimit({ document_number: document, type, mechanism: 'quantity', quantity: 1 })).toEqual(
      invalid('body.type must be one of cashin or cashout'),
    );
    await expectNothingStoredFor(document);
  });

  it('refuses a non-positive or fractional quantity', async () => {
    const document = freshCpf();
    for (const quantity of [0, -1, 2.5]) {
      expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'quantity', quantity })).toEqual(
        invalid('body.quantity must be a positive integer'),
      );
    }
    await expectNothingStoredFor(document);
  });

  it('refuses an invalid document, mechanism, details and unknown fields', async () => {
    const document = freshCpf();
    expect(await setLimit({ document_number: '12345678900', type: 'cashin', mechanism: 'quantity', quantity: 1 })).toEqual(
      invalid('body.document_number is invalid'),
    );
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'percent', quantity: 1 })).toEqual(
      invalid('body.mechanism must be one of amount or quantity'),
    );
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 1, details: 'x'.repeat(4097) })).toEqual(
      invalid('body.details must be a string of at most 4096 characters'),
    );
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 1, limit: 5 })).toEqual(
      invalid('`limit` is not a field of this endpoint'),
    );
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 1.999 })).toEqual(
      invalid('body.amount must have at most 2 decimal places'),
    );
    expect(await setLimit({ document_number: document, type: 'cashin', mechanism: 'amount', amount: 1e20 })).toEqual(
      invalid('body.amount must be at most 9999999999.99'),
    );
    await expectNothingStoredFor(document);
  });

  it('names several problems in one message, separated by a period', async () => {
    expect(await setLimit({ document_number: freshCpf(), type: 'daily', mechanism: 'amount', amount: -1 })).toEqual(
      invalid('body.type must be one of cashin or cashout. body.amount must be a positive number'),
    );
    expect(await setLimit({})).toEqual(invalid('body.document_number is a required field. body.type is a required field. body.mechanism is a required field'));
  });
});

describe('GET /v2/limits', () => {
  it('answers 404 "No limit found for this customer" when none is configured', async () => {
    expect(await getLimit(`?document_number=${freshCpf()}&type=cashout`)).toEqual({ status: 404, body: { message: 'No limit found for this customer' } });
  });

  it.each(['123', '11111111111', '529.982.247-25', '11222333000180', '12abc34501de35', ''])(
    'answers 400 "query.document_number is invalid" for %p',
    async (document) => {
      expect(await getLimit(`?document_number=${encodeURIComponent(document)}&type=cashin`)).toEqual(invalid('query.document_number is invalid'));
    },
  );

  it('answers 400 when the document or the type is missing or wrong', async () => {
    expect(await getLimit('?type=cashin')).toEqual(invalid('query.document_number is invalid'));
    expect(await getLimit(`?document_number=${freshCpf()}`)).toEqual(invalid('query.type must be one of cashin or cashout'));
    expect(await getLimit(`?document_number=${freshCpf()}&type=pix`)).toEqual(invalid('query.type must be one of cashin or cashout'));
  });
});

describe("the account's audit log", () => {
  it("records a limit set with the integration's key once, not again for a replayed Idempotency-Key, never a refused set", async () => {
    const account = await newMerchant(system);
    const document = freshCpf();
    const keys = await admin(system, 'GET', `/admin/accounts/${account.accountId}/api-keys`);
    const keyId = (keys.body.api_keys as { key_id: string; environment: string }[]).find((key) => key.environment === 'production')?.key_id;
    const post = (json: unknown, idempotencyKey?: string) =>
      fetch(`http://127.0.0.1:${system.profile.gateway}/v2/limits`, {
        method: 'POST',
        headers: { authorization: account.production, 'content-type': 'application/json', ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) },
        body: JSON.stringify(json),
      });
    const limit = { document_number: document, type: 'cashout', mechanism: 'quantity', quantity: 2 };
    expect((await post(limit, 'audit-1')).status).toBe(200);
    const replay = await post(limit, 'audit-1');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect((await post({ ...limit, quantity: 0 })).status).toBe(400);
    const log = await admin(system, 'GET', `/admin/accounts/${account.accountId}/audit-log`);
    expect(log.body.entries.filter((entry: { action: string }) => entry.action === 'customer_limit.set')).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        at: expect.stringMatching(ISO_UTC),
        environment: 'production',
        actor_type: 'api_key',
        actor: keyId,
        action: 'customer_limit.set',
        object: `*********${document.slice(-2)}`,
        detail: { type: 'cashout', mechanism: 'quantity', quantity: 2 },
      },
    ]);
  });
});
