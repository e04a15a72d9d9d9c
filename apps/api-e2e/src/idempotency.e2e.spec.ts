/** @shared-system */
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { eventually } from '@pixauto/testing';
import { freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// Idempotency-Key on POSTs (docs/decisions/idempotency.md): a POST with the header runs once per (account, environment, key); a repeat
// gets the first answer again, marked; another request under the key is 422; a repeat while the first runs is 409.
// Kept in Redis: it holds across a gateway restart.

let system: RunningSystem;
let merchant: Merchant;
let other: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
});
let sequence = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++sequence}`;
const pixBody = (transactionId = fresh('idem')) => ({
  transaction_id: transactionId,
  amount: 12.5,
  payer: { document_number: freshCpf(), name: 'Maria Silva' },
});

/** A POST with an Idempotency-Key: the status, the body, and the two headers this feature adds. */
async function post(path: string, json: unknown, idempotencyKey: string | undefined, key = merchant.sandbox, port = system.profile.sandbox) {
  const requestId = fresh('request');
  const headers: Record<string, string> = { authorization: key, 'content-type': 'application/json', 'x-request-id': requestId };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body: JSON.stringify(json) });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    replayed: response.headers.get('idempotent-replayed'),
    retryAfter: response.headers.get('retry-after'),
    requestId,
  };
}

const PAYMENTS_LOG = path.join(__dirname, '..', '..', '..', '.data', 'logs', process.env.E2E_PROFILE ?? 'e2e', 'payments-service.log');

/** The request ids among `requestIds` that payments-service handled, from its access lines. */
const handledOf = (requestIds: string[]): string[] => [
  ...new Set(
    fs
      .readFileSync(PAYMENTS_LOG, 'utf8')
      .split('\n')
      .filter((line) => line.endsWith('}') && requestIds.some((id) => line.includes(id))) // whole lines: the log may be being written
      .map((line) => JSON.parse(line) as { msg: string; request_id: string })
      .filter((line) => line.msg === 'rpc')
      .map((line) => line.request_id),
  ),
];

/**
 * Which of these requests payments-service handled: a replay or a 409 must never reach it (answered by the gateway,
 * the route must not run as well). A request sent after them is waited for first: by the time its line is logged, one
 * of them wrongly relayed has been logged too.
 */
async function servedBy(requestIds: string[]): Promise<string[]> {
  const later = await post('/v2/pix', pixBody(), undefined);
  expect(later.status).toBe(201);
  const handled = await eventually(
    () => handledOf([...requestIds, later.requestId]),
    (ids) => ids.includes(later.requestId),
    { ...WITHIN_SECONDS, what: 'the access line of a request sent after them' },
  );
  return handled.filter((id) => id !== later.requestId);
}

const chargesOf = async (transactionId: string) =>
  Number(
    (await queryService(system.profile.databasePrefix, 'payments', 'SELECT count(*) AS n FROM pix_charges WHERE transaction_id = $1', [transactionId]))[0].n,
  );

describe('Idempotency-Key', () => {
  it('runs a POST once: the repeat gets the same 201 and body, marked as a replay, and nothing is created twice', async () => {
    const key = fresh('k');
    const body = pixBody();
    const first = await post('/v2/pix', body, key);
    expect(first).toMatchObject({ status: 201, replayed: null });
    const again = await post('/v2/pix', { ...body, payer: { name: body.payer.name, document_number: body.payer.document_number } }, key); // keys in another order: the same request
    expect(again).toMatchObject({ status: 201, body: first.body, replayed: 'true', retryAfter: null });
    expect(await chargesOf(body.transaction_id)).toBe(1);
    expect(await servedBy([first.requestId, again.requestId])).toEqual([first.requestId]);
  });

  it("keeps the answer sealed in Redis: neither the payer nor a webhook endpoint's secret is there in clear", async () => {
    const key = fresh('k');
    const body = pixBody();
    expect((await post('/v2/pix', body, key)).status).toBe(201);
    const endpointKey = fresh('k');
    const endpoint = await post('/v2/webhooks/endpoints', { url: 'https://merchant.example/webhooks' }, endpointKey);
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    const redis = new Redis({ host: '127.0.0.1', port: 6379, db: system.profile.redisDb });
    try {
      const kept = [
        await redis.get(`idempotency:${merchant.accountId}:sandbox:${key}`),
        await redis.get(`idempotency:${merchant.accountId}:sandbox:${endpointKey}`),
      ];
      expect(kept.every((record) => record !== null)).toBe(true);
      expect(kept[0]).not.toContain(body.payer.document_number);
      expect(kept[0]).not.toContain(body.payer.name);
      expect(kept[1]).not.toContain(endpoint.body.secret);
    } finally {
      redis.disconnect();
    }
    expect(await post('/v2/webhooks/endpoints', { url: 'https://merchant.example/webhooks' }, endpointKey)).toMatchObject({
      status: 201,
      body: endpoint.body,
      replayed: 'true',
    });
  });

  it('refuses the key for another request (422), and keeps accounts and environments apart', async () => {
    const key = fresh('k');
    const body = pixBody();
    expect((await post('/v2/pix', body, key)).status).toBe(201);
    expect(await post('/v2/pix', { ...body, amount: 13 }, key)).toMatchObject({
      status: 422,
      body: { type: 'ValidationError', message: 'Idempotency-Key was already used with another request: use a new key for a new request' },
    });
    expect(await post('/v2/limits', { document_number: freshCpf(), type: 'cashin', mechanism: 'quantity', quantity: 1 }, key)).toMatchObject({ status: 422 });
    // The same key is another account's own, and production's own.
    expect(await post('/v2/pix', pixBody(), key, other.sandbox)).toMatchObject({ status: 201, replayed: null });
    expect(
      await post(
        '/v2/limits',
        { document_number: freshCpf(), type: 'cashin', mechanism: 'quantity', quantity: 1 },
        key,
        merchant.production,
        system.profile.gateway,
      ),
    ).toMatchObject({
      status: 200,
      replayed: null,
    });
  });

  it('replays a refusal too (the request was judged), but never a failure that a repeat could mend', async () => {
    const key = fresh('k');
    const bad = { ...pixBody(), amount: -1 };
    const refused = await post('/v2/pix', bad, key);
    expect(refused).toMatchObject({ status: 400, body: { type: 'ValidationError', message: 'body.amount must be a positive number' }, replayed: null });
    expect(await post('/v2/pix', bad, key)).toMatchObject({ status: refused.status, body: refused.body, replayed: 'true', retryAfter: null });
    // A service that does not answer (503) is not kept: once it is back, the same request runs.
    const body = pixBody();
    const again = fresh('k');
    await system.crash('payments-service');
    try {
      expect((await post('/v2/pix', body, again)).status).toBe(503);
    } finally {
      await system.restart('payments-service');
    }
    expect(await post('/v2/pix', body, again)).toMatchObject({ status: 201, replayed: null });
  });

  it('answers 409 with Retry-After to a repeat while the first is still running; exactly one creates', async () => {
    const key = fresh('k');
    const body = pixBody();
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/v2/pix', body, key)));
    const created = answers.filter((a) => a.status === 201);
    const running = answers.filter((a) => a.status === 409);
    expect(created.length + running.length).toBe(6);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    for (const r of running)
      expect(r).toMatchObject({ retryAfter: '1', body: { message: 'A request with this Idempotency-Key is still running: retry after it has been answered' } });
    expect(await chargesOf(body.transaction_id)).toBe(1);
    expect(await servedBy(answers.map((a) => a.requestId))).toEqual(created.map((a) => a.requestId));
    expect((await post('/v2/pix', body, key)).replayed).toBe('true');
  });

  it('refuses a malformed key, and without the header nothing changes', async () => {
    expect(await post('/v2/pix', pixBody(), 'x'.repeat(256))).toMatchObject({
      status: 400,
      body: { type: 'ValidationError', message: 'header Idempotency-Key must be 1 to 255 printable ASCII characters' },
    });
    const body = pixBody();
    expect((await post('/v2/pix', body, undefined)).status).toBe(201);
    expect(await post('/v2/pix', body, undefined)).toMatchObject({ status: 400, body: { message: 'body.transaction_id already exists' }, replayed: null });
  });

  it('holds across a gateway restart', async () => {
    const key = fresh('k');
    const body = pixBody();
    const first = await post('/v2/pix', body, key);
    await system.crash('api-gateway');
    await system.restart('api-gateway');
    expect(await post('/v2/pix', body, key)).toMatchObject({ status: 201, body: first.body, replayed: 'true', retryAfter: null });
  });
});
