/** @shared-system */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eventually } from '@pixauto/testing';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';
import { openAccount, RECURRENCES, recurrenceBody } from './support/recurrences';
import { admin, freshCpf, newMerchant } from './support/fixtures';
import type { RequestLogPage } from '@pixauto/contracts';

// Logs (docs/operations.md "Logs and traces"): JSON lines in every app; one request id, sent as X-Request-Id, followed
// by one grep from the gateway into the service and, through the event's Kafka headers, into the consumers; no API key
// and no full CPF anywhere.

const LOG_DIR = path.join(__dirname, '..', '..', '..', '.data', 'logs', process.env.E2E_PROFILE ?? 'e2e');
const APPS = [
  'api-gateway',
  'recurrence-service',
  'solicitation-service',
  'payments-service',
  'limits-service',
  'payout-query-service',
  'webhook-dispatcher',
  'receipt-service',
  'bank-simulator',
];
const fileOf = (app: string): string => path.join(LOG_DIR, `${app}.log`);

let system: RunningSystem;

beforeAll(() => {
  system = sharedSystem();
});

/** What an app has logged since the shared system's start, and before it (the apps append to their files). */
const logOf = (app: string): string => fs.readFileSync(fileOf(app), 'utf8');

/** The JSON lines of an app's log that hold `text`. */
const linesWith = (app: string, text: string): Record<string, unknown>[] =>
  logOf(app)
    .split('\n')
    .filter((line) => line.includes(text))
    .map((line) => JSON.parse(line));

async function createRecurrence(key: string, body: unknown, requestId?: string): Promise<Response> {
  const headers: Record<string, string> = { authorization: key, 'content-type': 'application/json' };
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  return fetch(`http://127.0.0.1:${system.profile.gateway}${RECURRENCES}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('logs', () => {
  it('follow one request by its X-Request-Id through the gateway, the service and the consumers of its events, with no API key or CPF', async () => {
    const merchant = await openAccount(system);
    const requestId = `e2e-logs-${randomUUID()}`;
    const body = recurrenceBody();
    const cpf = (body.debtor as { document_number: string }).document_number;
    const response = await createRecurrence(merchant.production, body, requestId);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe(requestId);

    const access = await eventually(
      () => linesWith('api-gateway', requestId),
      (lines) => lines.length > 0,
      WITHIN_SECONDS,
    );
    expect(access).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'POST',
        route: RECURRENCES,
        status: 201,
        listener: 'production',
        environment: 'production',
        account_id: merchant.accountId,
        request_id: requestId,
        latency_ms: expect.any(Number),
      }),
    );
    const rpc = await eventually(
      () => linesWith('recurrence-service', requestId),
      (lines) => lines.some((line) => line.msg === 'rpc'),
      WITHIN_SECONDS,
    );
    expect(rpc).toContainEqual(
      expect.objectContaining({ msg: 'rpc', pattern: 'recurrences.create', status: 201, account_id: merchant.accountId, request_id: requestId }),
    );
    // RecurrenceCreated reaches the solicitation-service through Kafka, the id in the message's headers.
    const consumed = await eventually(
      () => linesWith('solicitation-service', requestId),
      (lines) => lines.some((line) => line.msg === 'event handled'),
      WITHIN_SECONDS,
    );
    expect(consumed).toContainEqual(
      expect.objectContaining({ msg: 'event handled', topic: 'pixauto.recurrences.events.v1', type: 'recurrence.created', request_id: requestId }),
    );

    for (const app of APPS) {
      const log = logOf(app);
      expect(log).not.toContain(merchant.production);
      expect(log).not.toContain(merchant.sandbox);
      expect(log).not.toContain(cpf);
    }
  });

  it('are JSON, one object a line, in every app', () => {
    for (const app of APPS) {
      const lines = logOf(app).split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('give a request without an acceptable X-Request-Id a new one, returned in the answer', async () => {
    const merchant = await openAccount(system);
    for (const sent of [undefined, 'has spaces in it', 'x'.repeat(200)]) {
      const response = await createRecurrence(merchant.sandbox.replace(/./g, 'x'), recurrenceBody(), sent);
      expect(response.status).toBe(401);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

// The console's request log (docs/decisions/request-log.md): every request made with one of the account's keys, its
// line readable through the admin API within a second or so, no key and no document in clear.
describe('request log', () => {
  const requestsOf = (accountId: string, query: string) => admin(system, 'GET', `/admin/accounts/${accountId}/requests?${query}`);

  it("keeps each request of the account's keys of one environment, a failed one with its redacted bodies", async () => {
    const merchant = await newMerchant(system);
    const cpf = freshCpf();
    const requestId = `e2e-request-log-${randomUUID()}`;
    const sandbox = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`http://127.0.0.1:${system.profile.sandbox}${path}`, {
        method,
        headers: { authorization: merchant.sandbox, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await sandbox('GET', `/v2/limits?document_number=${cpf}&type=cashin`)).status).toBe(404);
    const refused = await sandbox(
      'POST',
      '/v2/limits',
      { 'x-request-id': requestId, 'idempotency-key': 'idem-log-1' },
      { document_number: cpf, type: 'cashin', amount: -1 },
    );
    expect(refused.status).toBe(400);

    const page = await eventually(
      () => requestsOf(merchant.accountId, 'environment=sandbox'),
      (answer) => answer.status === 200 && (answer.body as RequestLogPage).requests.length === 2,
      WITHIN_SECONDS,
    );
    const [post, get] = (page.body as RequestLogPage).requests;
    expect(post).toMatchObject({
      account_id: merchant.accountId,
      environment: 'sandbox',
      request_id: requestId,
      method: 'POST',
      path: '/v2/limits',
      status: 400,
      idempotency_key: 'idem-log-1',
    });
    expect(JSON.parse(post.request_body as string)).toEqual({ document_number: '[redacted]', type: 'cashin', amount: -1 });
    expect(JSON.parse(post.response_body as string)).toMatchObject({ type: 'ValidationError' });
    expect(get).toMatchObject({ method: 'GET', status: 404, path: `/v2/limits?document_number=*********${cpf.slice(-2)}&type=cashin`, request_body: null });
    expect(JSON.stringify(page.body)).not.toContain(cpf);
    expect(JSON.stringify(page.body)).not.toContain(merchant.sandbox);

    expect((await requestsOf(merchant.accountId, `environment=sandbox&request_id=${requestId}`)).body).toEqual({ requests: [post], next_cursor: null });
    expect(((await requestsOf(merchant.accountId, 'environment=sandbox&failed=true&method=get')).body as RequestLogPage).requests).toEqual([get]);
    const first = (await requestsOf(merchant.accountId, 'environment=sandbox&limit=1')).body as RequestLogPage;
    expect(first.requests).toEqual([post]);
    expect((await requestsOf(merchant.accountId, `environment=sandbox&limit=1&cursor=${first.next_cursor}`)).body).toEqual({
      requests: [get],
      next_cursor: null,
    });
    expect((await requestsOf(merchant.accountId, 'environment=production')).body).toEqual({ requests: [], next_cursor: null });
  });

  it("is read by the merchant's own keys at GET /v2/requests: its environment's lines only, refusals with their reason", async () => {
    const merchant = await newMerchant(system);
    const other = await newMerchant(system);
    const readOnly = (await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'sandbox', read_only: true })).body as {
      api_key: string;
    };
    const get = (port: number, key: string, path: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: key } }).then(async (answer) => ({
        status: answer.status,
        body: await answer.json(),
      }));
    expect((await get(system.profile.sandbox, merchant.sandbox, '/v2/pix?id=999000003')).status).toBe(404);
    expect((await get(system.profile.gateway, merchant.production, '/v2/pix?id=999000004')).status).toBe(404);
    expect((await get(system.profile.sandbox, other.sandbox, '/v2/pix?id=999000005')).status).toBe(404);

    const sandboxPage = await eventually(
      () => get(system.profile.sandbox, readOnly.api_key, '/v2/requests?path=/v2/pix'),
      (answer) => answer.status === 200 && (answer.body as RequestLogPage).requests.length === 1,
      WITHIN_SECONDS,
    );
    expect((sandboxPage.body as RequestLogPage).requests).toEqual([
      expect.objectContaining({ account_id: merchant.accountId, environment: 'sandbox', method: 'GET', path: '/v2/pix?id=999000003', status: 404 }),
    ]);
    const productionPage = await eventually(
      () => get(system.profile.gateway, merchant.production, '/v2/requests?path=/v2/pix'),
      (answer) => answer.status === 200 && (answer.body as RequestLogPage).requests.length === 1,
      WITHIN_SECONDS,
    );
    expect((productionPage.body as RequestLogPage).requests).toEqual([expect.objectContaining({ environment: 'production', path: '/v2/pix?id=999000004' })]);

    expect(await get(system.profile.sandbox, merchant.sandbox, '/v2/requests?limit=500&failed=maybe&cursor=nope')).toEqual({
      status: 400,
      body: expect.objectContaining({
        message:
          'query.failed must be true or false. query.limit must be a whole number from 1 to 100. query.cursor must be the next_cursor of an earlier page',
      }),
    });
    expect((await get(system.profile.sandbox, 'pix_test_not-a-key-of-ours', '/v2/requests')).status).toBe(401);
  });

  it('answers a query it cannot read with its reason', async () => {
    const merchant = await newMerchant(system);
    expect(await requestsOf(merchant.accountId, 'environment=staging')).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'query.environment must be one of production or sandbox' }),
    });
    expect(await requestsOf(merchant.accountId, 'environment=sandbox&limit=500&failed=maybe&cursor=nope')).toEqual({
      status: 400,
      body: expect.objectContaining({
        message:
          'query.failed must be true or false. query.limit must be a whole number from 1 to 100. query.cursor must be the next_cursor of an earlier page',
      }),
    });
    expect(await requestsOf('no-such-account', 'environment=sandbox')).toEqual({
      status: 404,
      body: expect.objectContaining({ message: 'Account not found' }),
    });
  });
});
