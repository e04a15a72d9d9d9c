/** @shared-system */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { call } from './support/http';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { metricsOf, total } from './support/metrics';
import { RunningSystem, sharedSystem } from './support/running-system';

// docs/decisions/api-access.md: API keys, environments, read-only keys, tenants, the admin API.

const INVALID_KEY = { code: 1, message: 'Api Key Invalid!' };

let system: RunningSystem;
let merchant: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
});

const limitQuery = (document: string) => `/v2/limits?document_number=${document}&type=cashin`;
const limitBody = (document: string) => ({ document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 2 });

describe('API keys', () => {
  it('answers 401 with code 1 when the Authorization header is missing', async () => {
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()))).toEqual({ status: 401, body: INVALID_KEY });
  });

  it('answers 401 for an unknown key', async () => {
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: 'pix_live_unknown' })).toEqual({ status: 401, body: INVALID_KEY });
  });

  it('accepts the key alone and with a Bearer prefix', async () => {
    const document = freshCpf();
    expect((await call(system.profile.gateway, 'POST', '/v2/limits', { key: merchant.production, json: limitBody(document) })).status).toBe(200);
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: `Bearer ${merchant.production}` })).status).toBe(200);
  });

  it("refuses a key on the other environment's port", async () => {
    expect(await call(system.profile.sandbox, 'GET', limitQuery(freshCpf()), { key: merchant.production })).toEqual({ status: 401, body: INVALID_KEY });
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: merchant.sandbox })).toEqual({ status: 401, body: INVALID_KEY });
  });

  it('remembers an unknown key for a few seconds: a flood of it reaches PostgreSQL once, and a key issued right after works at once', async () => {
    const databaseLookups = async () => total(await metricsOf(system.profile.gatewayOps), 'pixauto_api_key_lookups_total', { source: 'database' });
    const unknown = `pix_live_${randomBytes(32).toString('base64url')}`;
    const before = await databaseLookups();
    for (let i = 0; i < 10; i++) {
      expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: unknown })).toEqual({ status: 401, body: INVALID_KEY });
    }
    expect(await databaseLookups()).toBe(before + 1);
    // An operator issues a key right then: it answers at once, from Redis (issuing wrote its grant there).
    const issued = await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'production' });
    expect((await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: issued.body.api_key })).status).toBe(404);
    expect(await databaseLookups()).toBe(before + 1);
  });

  it('stops a revoked key at once', async () => {
    const issued = await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'production' });
    const key = issued.body.api_key as string;
    expect((await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key })).status).toBe(404);
    expect((await admin(system, 'DELETE', `/admin/api-keys/${issued.body.key_id}`)).status).toBe(204);
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key })).toEqual({ status: 401, body: INVALID_KEY });
  });

  it('lets a read-only key read but not write, and its refused write leaves nothing', async () => {
    const issued = await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'production', read_only: true });
    expect(issued.body).toMatchObject({ environment: 'production', read_only: true, transactions: true });
    const document = freshCpf();
    const write = await call(system.profile.gateway, 'POST', '/v2/limits', { key: issued.body.api_key, json: limitBody(document) });
    expect(write).toEqual({ status: 403, body: { code: 2, message: 'Api Key is read-only!' } });
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: issued.body.api_key })).status).toBe(404);
  });
});

describe('tenants', () => {
  it("answers another account's limit exactly as an unknown one", async () => {
    const document = freshCpf();
    await call(system.profile.gateway, 'POST', '/v2/limits', { key: merchant.production, json: limitBody(document) });
    const other = await newMerchant(system);
    expect(await call(system.profile.gateway, 'GET', limitQuery(document), { key: other.production })).toEqual({
      status: 404,
      body: { message: 'No limit found for this customer' },
    });
  });

  it('never mixes sandbox and production data of one account', async () => {
    const document = freshCpf();
    expect((await call(system.profile.sandbox, 'POST', '/v2/limits', { key: merchant.sandbox, json: limitBody(document) })).status).toBe(200);
    expect((await call(system.profile.sandbox, 'GET', limitQuery(document), { key: merchant.sandbox })).status).toBe(200);
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: merchant.production })).status).toBe(404);
  });
});

describe('request shapes', () => {
  const post = (raw: string | Buffer, contentType?: string) =>
    call(system.profile.gateway, 'POST', '/v2/limits', { key: merchant.production, raw, contentType });

  it('answers malformed JSON with a 400 ValidationError', async () => {
    expect(await post('{"document_number":')).toEqual({ status: 400, body: { type: 'ValidationError', message: 'body is not valid JSON' } });
  });

  it('answers another content type with a 400 ValidationError', async () => {
    expect(await post('document_number=1', 'application/x-www-form-urlencoded')).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'Content-Type must be application/json' },
    });
    expect(await post('hello', 'text/plain')).toEqual({ status: 400, body: { type: 'ValidationError', message: 'Content-Type must be application/json' } });
  });

  it('answers an oversized body with a 400 ValidationError', async () => {
    const huge = JSON.stringify({ details: 'x'.repeat(1024 * 1024) });
    expect(await post(huge)).toEqual({ status: 400, body: { type: 'ValidationError', message: 'body must be at most 1048576 bytes' } });
  });

  it('answers a JSON body that is not an object with a 400 ValidationError', async () => {
    for (const raw of ['[]', 'null', '42', '"text"']) {
      expect(await post(raw)).toEqual({ status: 400, body: { type: 'ValidationError', message: 'body must be a JSON object' } });
    }
  });

  it('refuses a body naming a key twice, naming the key, and creates nothing', async () => {
    const document = freshCpf();
    expect(await post(`{"document_number":"${document}","type":"cashin","type":"cashout","mechanism":"quantity","quantity":2}`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'body.type is given twice: name each field once' },
    });
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: merchant.production })).status).toBe(404);
    expect(await post('{"__proto__":{"polluted":true}}')).toEqual({ status: 400, body: { type: 'ValidationError', message: 'body is not valid JSON' } });
  });

  it("refuses a body on a GET, a path parameter past 100 characters and a malformed URL in the spec's shape", async () => {
    // fetch refuses to send a body with GET; a client built on plain sockets can.
    const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port: system.profile.gateway,
          method: 'GET',
          path: limitQuery(freshCpf()),
          headers: { authorization: merchant.production, 'content-type': 'application/json', 'content-length': '7' },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      request.once('error', reject);
      request.end('{"a":1}');
    });
    expect(answer).toEqual({ status: 400, body: { type: 'ValidationError', message: 'a GET request takes no body' } });
    const sandbox = (path: string) => call(system.profile.sandbox, 'GET', path, { key: merchant.sandbox });
    expect(await sandbox(`/v2/automatic-pix/recurrences/${'a'.repeat(5000)}`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'path parameters must be at most 100 characters' },
    });
    expect(await sandbox('/v2/automatic-pix/recurrences/%E0%A4%A')).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'the URL is not valid: check its percent-encoding' },
    });
  });

  it("answers a 10 kB Authorization header as any unknown key, and headers past 16 kB in the spec's shape", async () => {
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: 'k'.repeat(10_000) })).toEqual({ status: 401, body: INVALID_KEY });
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: 'k'.repeat(20_000) })).toEqual({
      status: 431,
      body: { type: 'ValidationError', message: 'request headers must be at most 16384 bytes in all' },
    });
  });

  it('answers an unknown route with 404 and a message', async () => {
    expect(await call(system.profile.gateway, 'GET', '/v2/nothing-here', { key: merchant.production })).toEqual({
      status: 404,
      body: { message: 'Route not found' },
    });
  });

  it('refuses text no service can store (NUL, an unpaired surrogate) wherever it is, naming where, and creates nothing', async () => {
    const unstorable = (path: string) => ({
      status: 400,
      body: { type: 'ValidationError', message: `${path} must be text without NUL characters or unpaired surrogates` },
    });
    const document = freshCpf();
    // JSON escapes, as a client sends them: "\u0000" and a lone "\ud800".
    expect(await post(`{"document_number":"${document}","type":"cashin","mechanism":"quantity","quantity":2,"details":"a\\u0000b"}`)).toEqual(
      unstorable('body.details'),
    );
    expect(await post(`{"document_number":"${document}","type":"cashin","mechanism":"quantity","quantity":2,"details":"\\ud800"}`)).toEqual(
      unstorable('body.details'),
    );
    const sandbox = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: merchant.sandbox, json });
    expect(await sandbox('POST', '/v2/automatic-pix/recurrences', { transaction_id: '\u0000' })).toEqual(unstorable('body.transaction_id'));
    expect(await sandbox('GET', '/v2/automatic-pix/recurrences/%00')).toEqual(unstorable('params.recurrence_id'));
    expect(await call(system.profile.gateway, 'GET', `${limitQuery(document)}&x=%00`, { key: merchant.production })).toEqual(unstorable('query.x'));
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: merchant.production })).status).toBe(404);
  });
});

describe('rate limits', () => {
  /** A GET with the answer's rate-limit headers. */
  const get = async (port: number, key: string) => {
    const response = await fetch(`http://127.0.0.1:${port}${limitQuery(freshCpf())}`, { headers: { authorization: key } });
    const header = (name: string) => response.headers.get(name);
    return {
      status: response.status,
      body: await response.json(),
      limit: header('ratelimit-limit'),
      remaining: header('ratelimit-remaining'),
      reset: header('ratelimit-reset'),
      policy: header('ratelimit-policy'),
      retryAfter: header('retry-after'),
    };
  };

  it("tells every answer its account's limit, refuses what goes past it with 429 and Retry-After, per account and environment", async () => {
    const limited = await newMerchant(system);
    expect(await get(system.profile.sandbox, limited.sandbox)).toMatchObject({
      status: 404,
      limit: '5000',
      remaining: '4999',
      reset: '1',
      policy: '5000;w=1',
      retryAfter: null,
    });

    const changed = await admin(system, 'PATCH', `/admin/accounts/${limited.accountId}`, { rate_limit: { sandbox: 3 } });
    expect(changed).toMatchObject({ status: 200, body: { rate_limit: { production: 5000, sandbox: 3 } } });
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the window forgets the request above

    const burst = await Promise.all(Array.from({ length: 8 }, () => get(system.profile.sandbox, limited.sandbox)));
    const refused = burst.filter((answer) => answer.status === 429);
    // Three in one second; a fourth only if the burst straddles a second (the previous one's weight rounds down).
    expect(burst.length - refused.length).toBeGreaterThanOrEqual(3);
    expect(burst.length - refused.length).toBeLessThanOrEqual(4);
    expect(refused[0]).toEqual({
      status: 429,
      body: {
        message:
          'Too many requests: this account may make 3 requests per second in this environment, whichever of its API keys sends them; retry after the Retry-After seconds',
      },
      limit: '3',
      remaining: '0',
      reset: '1',
      policy: '3;w=1',
      retryAfter: '1',
    });
    // The same account's production keeps its own limit, and a refused account gets room again after a while.
    expect(await get(system.profile.gateway, limited.production)).toMatchObject({ status: 404, limit: '5000' });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await get(system.profile.sandbox, limited.sandbox)).toMatchObject({ status: 404, limit: '3', remaining: '2' });
  });

  it('counts every key of an account together in an environment: a new key does not raise the limit', async () => {
    const limited = await newMerchant(system);
    expect((await admin(system, 'PATCH', `/admin/accounts/${limited.accountId}`, { rate_limit: { sandbox: 4 } })).status).toBe(200);
    const keys = [limited.sandbox];
    for (let i = 0; i < 3; i++) {
      const issued = await admin(system, 'POST', `/admin/accounts/${limited.accountId}/api-keys`, { environment: 'sandbox' });
      keys.push(issued.body.api_key as string);
    }
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the window forgets the requests above
    const burst = await Promise.all(Array.from({ length: 12 }, (_, n) => get(system.profile.sandbox, keys[n % keys.length])));
    const allowed = burst.filter((answer) => answer.status === 404);
    // Four keys, one window: four in one second (a fifth only if the burst straddles a second), not sixteen.
    expect(allowed.length).toBeGreaterThanOrEqual(4);
    expect(allowed.length).toBeLessThanOrEqual(5);
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(12 - allowed.length);
    expect(burst.find((answer) => answer.status === 429)).toMatchObject({
      body: {
        message:
          'Too many requests: this account may make 4 requests per second in this environment, whichever of its API keys sends them; retry after the Retry-After seconds',
      },
      limit: '4',
      remaining: '0',
      retryAfter: '1',
    });
    // Another account is not touched by it.
    expect(await get(system.profile.sandbox, merchant.sandbox)).toMatchObject({ status: 404, limit: '5000' });
  });

  it('refuses a limit that is not a whole number from 1 to 100000', async () => {
    const message = 'body.rate_limit must be an object of production and/or sandbox, each a whole number of requests per second from 1 to 100000';
    for (const rate_limit of [{ sandbox: 0 }, { production: 1.5 }, { production: 100001 }, 5, { sandbox: '3' }]) {
      expect(await admin(system, 'PATCH', `/admin/accounts/${merchant.accountId}`, { rate_limit })).toEqual({
        status: 400,
        body: { type: 'ValidationError', message },
      });
    }
  });
});

describe('admin API', () => {
  it('requires the admin token', async () => {
    const noToken = await call(system.profile.admin, 'POST', '/admin/accounts', { json: { name: 'x' } });
    expect(noToken).toEqual({ status: 401, body: { code: 1, message: 'Admin Token Invalid!' } });
    const wrong = await call(system.profile.admin, 'POST', '/admin/accounts', { auth: 'Bearer nope', json: { name: 'x' } });
    expect(wrong.status).toBe(401);
  });

  it('opens an account with the platform defaults and a Standard Webhooks secret per environment', async () => {
    const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Padaria' });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({
      account_id: expect.any(String),
      name: 'Padaria',
      wallet: true,
      cashin_provider: 'PROVIDER_A',
      providers: [{ code: 'PROVIDER_A' }, { code: 'PROVIDER_B' }],
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
      sandbox_webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
      rate_limit: { production: 5000, sandbox: 5000 },
    });
    expect(opened.body.sandbox_webhook_secret).not.toBe(opened.body.webhook_secret);
  });

  it('changes an account and refuses bad input', async () => {
    const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Feira', wallet: false, cashin_provider: 'PROVIDER_C' });
    const id = opened.body.account_id;
    const changed = await admin(system, 'PATCH', `/admin/accounts/${id}`, {
      wallet: true,
      providers: [{ code: 'PROVIDER_B', credentials: { client_id: 'c', client_secret: 's' } }],
    });
    expect(changed).toEqual({ status: 200, body: { ...opened.body, wallet: true, providers: [{ code: 'PROVIDER_B' }] } });
    expect((await admin(system, 'PATCH', `/admin/accounts/${id}`, { wallet: 'yes' })).body).toEqual({
      type: 'ValidationError',
      message: 'body.wallet must be true or false',
    });
    expect((await admin(system, 'PATCH', `/admin/accounts/${id}`, {})).status).toBe(400);
    expect(await admin(system, 'PATCH', '/admin/accounts/00000000-0000-0000-0000-000000000000', { wallet: true })).toEqual({
      status: 404,
      body: { message: 'Account not found' },
    });
    expect((await admin(system, 'POST', '/admin/accounts', { name: '' })).status).toBe(400);
  });

  it("lists an account's keys, the newest first, revoked ones marked, and never a key or its hash", async () => {
    const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Chaveiro' });
    const id = opened.body.account_id as string;
    expect(await admin(system, 'GET', `/admin/accounts/${id}/api-keys`)).toEqual({ status: 200, body: { api_keys: [], last_used_since: expect.any(String) } });
    const first = await admin(system, 'POST', `/admin/accounts/${id}/api-keys`, { environment: 'production' });
    const second = await admin(system, 'POST', `/admin/accounts/${id}/api-keys`, {
      environment: 'sandbox',
      read_only: true,
      transactions: false,
      name: 'Relatórios',
    });
    expect(second.body).toMatchObject({ name: 'Relatórios' });
    expect((await admin(system, 'DELETE', `/admin/api-keys/${first.body.key_id}`)).status).toBe(204);
    const listed = await admin(system, 'GET', `/admin/accounts/${id}/api-keys`);
    expect(listed).toEqual({
      status: 200,
      body: {
        api_keys: [
          {
            key_id: second.body.key_id,
            environment: 'sandbox',
            read_only: true,
            transactions: false,
            name: 'Relatórios',
            created_at: expect.any(String),
            revoked_at: null,
            last_used_at: null,
          },
          {
            key_id: first.body.key_id,
            environment: 'production',
            read_only: false,
            transactions: true,
            name: null,
            created_at: expect.any(String),
            revoked_at: expect.any(String),
            last_used_at: null,
          },
        ],
        last_used_since: expect.any(String),
      },
    });
    expect(JSON.stringify(listed.body)).not.toMatch(/pix_(live|test)_|[0-9a-f]{64}/);
    expect(await admin(system, 'GET', '/admin/accounts/00000000-0000-0000-0000-000000000000/api-keys')).toEqual({
      status: 404,
      body: { message: 'Account not found' },
    });
  });

  it('issues keys only for existing accounts and in a known environment', async () => {
    expect(await admin(system, 'POST', '/admin/accounts/00000000-0000-0000-0000-000000000000/api-keys', { environment: 'sandbox' })).toEqual({
      status: 404,
      body: { message: 'Account not found' },
    });
    expect(await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'staging' })).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'body.environment must be one of production or sandbox' },
    });
    for (const name of ['', 'x'.repeat(101), 7]) {
      expect(await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'sandbox', name })).toEqual({
        status: 400,
        body: { type: 'ValidationError', message: 'body.name must be a string of 1 to 100 characters' },
      });
    }
    expect(await admin(system, 'DELETE', '/admin/api-keys/key_unknown')).toEqual({ status: 404, body: { message: 'Api key not found' } });
  });
});

describe('console users, through the admin listener', () => {
  const users = (accountId: string) => `/admin/accounts/${accountId}/console-users`;
  const refused = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
  const email = () => `ana.${freshCpf()}@loja.example`;
  const tokenOf = (url: string) => url.split('#/set-password/')[1];

  it('refuses bad input with its message and creates no user', async () => {
    const address = email();
    expect(await admin(system, 'POST', users(merchant.accountId), { email: 'not-an-email', role: 'owner' })).toEqual(
      refused('body.email must be an email address of at most 254 characters'),
    );
    expect(await admin(system, 'POST', users(merchant.accountId), { email: address, role: 'admin' })).toEqual(
      refused('body.role must be one of owner, developer, viewer'),
    );
    // A password is the user's to choose, with their sign-in link: the operator never sets one.
    expect(await admin(system, 'POST', users(merchant.accountId), { email: address, role: 'viewer', password: 'a long passphrase' })).toEqual(
      refused('`password` is not a field of this endpoint'),
    );
    // None of those created the user.
    expect(await admin(system, 'POST', `${users(merchant.accountId)}/${encodeURIComponent(address)}/sign-in-link`)).toEqual({
      status: 404,
      body: { message: 'Console user not found' },
    });
  });

  it('creates a user once, with a sign-in link that sets their password once, and refuses the same email again', async () => {
    const address = email();
    const password = 'a long passphrase';
    const created = await admin(system, 'POST', users(merchant.accountId), { email: address, role: 'developer' });
    expect(created).toEqual({
      status: 201,
      body: {
        user: expect.objectContaining({ email: address, role: 'developer', account_id: merchant.accountId, last_signed_in_at: null }),
        sign_in_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/#\/set-password\/[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
      },
    });
    const token = tokenOf((created.body as { sign_in_url: string }).sign_in_url);
    expect(await admin(system, 'POST', users(merchant.accountId), { email: address, role: 'viewer' })).toEqual(
      refused('body.email already belongs to a console user of this account'),
    );
    expect(await admin(system, 'POST', '/admin/console-users/sign-in-link', { token, password: 'too short' })).toEqual(
      refused('body.password must be a string of 12 to 128 characters'),
    );
    expect(await admin(system, 'POST', '/admin/console-users/sign-in-link', { token, password })).toEqual({
      status: 200,
      body: expect.objectContaining({ email: address, role: 'developer', last_signed_in_at: expect.any(String) }),
    });
    expect(await admin(system, 'POST', '/admin/console-users/sign-in-link', { token, password: 'another long passphrase' })).toEqual({
      status: 404,
      body: { message: 'This sign-in link has expired or was already used: ask an owner of your account for a new one' },
    });
    expect(await admin(system, 'POST', '/admin/console-users/verify', { email: address, password })).toEqual({
      status: 200,
      body: expect.objectContaining({ email: address, role: 'developer' }),
    });
    expect(await admin(system, 'POST', '/admin/console-users/verify', { email: address, password: 'another long passphrase' })).toEqual({
      status: 404,
      body: expect.objectContaining({ message: 'Email or password is wrong' }),
    });
  });
});
