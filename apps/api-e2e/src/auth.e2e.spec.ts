import { call } from './support/http';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { RunningSystem, startSystem } from './support/system';

// service-api.md §5 and platform.md §1-2: API keys, environments, read-only keys, tenants, the admin API.

const INVALID_KEY = { code: 1, message: 'Api Key Invalid!' };

let system: RunningSystem;
let merchant: Merchant;

beforeAll(async () => {
  system = await startSystem();
  merchant = await newMerchant(system);
});
afterAll(() => system?.stop());

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

  it('refuses a key on the other environment\'s port', async () => {
    expect(await call(system.profile.sandbox, 'GET', limitQuery(freshCpf()), { key: merchant.production })).toEqual({ status: 401, body: INVALID_KEY });
    expect(await call(system.profile.gateway, 'GET', limitQuery(freshCpf()), { key: merchant.sandbox })).toEqual({ status: 401, body: INVALID_KEY });
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
  it('answers another account\'s limit exactly as an unknown one', async () => {
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
  const post = (raw: string | Buffer, contentType?: string) => call(system.profile.gateway, 'POST', '/v2/limits', { key: merchant.production, raw, contentType });

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

  it('answers an unknown route with 404 and a message', async () => {
    expect(await call(system.profile.gateway, 'GET', '/v2/nothing-here', { key: merchant.production })).toEqual({ status: 404, body: { message: 'Route not found' } });
  });

  it('refuses text no service can store (NUL, an unpaired surrogate) wherever it is, naming where, and creates nothing', async () => {
    const unstorable = (path: string) => ({ status: 400, body: { type: 'ValidationError', message: `${path} must be text without NUL characters or unpaired surrogates` } });
    const document = freshCpf();
    // JSON escapes, as a client sends them: "\u0000" and a lone "\ud800".
    expect(await post(`{"document_number":"${document}","type":"cashin","mechanism":"quantity","quantity":2,"details":"a\\u0000b"}`)).toEqual(unstorable('body.details'));
    expect(await post(`{"document_number":"${document}","type":"cashin","mechanism":"quantity","quantity":2,"details":"\\ud800"}`)).toEqual(unstorable('body.details'));
    const sandbox = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: merchant.sandbox, json });
    expect(await sandbox('POST', '/v2/automatic-pix/recurrences', { transaction_id: '\u0000' })).toEqual(unstorable('body.transaction_id'));
    expect(await sandbox('GET', '/v2/automatic-pix/recurrences/%00')).toEqual(unstorable('params.recurrence_id'));
    expect(await call(system.profile.gateway, 'GET', `${limitQuery(document)}&x=%00`, { key: merchant.production })).toEqual(unstorable('query.x'));
    expect((await call(system.profile.gateway, 'GET', limitQuery(document), { key: merchant.production })).status).toBe(404);
  });
});

describe('admin API', () => {
  it('requires the admin token', async () => {
    const noToken = await call(system.profile.admin, 'POST', '/admin/accounts', { json: { name: 'x' } });
    expect(noToken).toEqual({ status: 401, body: { code: 1, message: 'Admin Token Invalid!' } });
    const wrong = await call(system.profile.admin, 'POST', '/admin/accounts', { auth: 'Bearer nope', json: { name: 'x' } });
    expect(wrong.status).toBe(401);
  });

  it('opens an account with the platform defaults and a Standard Webhooks secret', async () => {
    const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Padaria' });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({
      account_id: expect.any(String),
      name: 'Padaria',
      wallet: true,
      cashin_provider: 'PROVIDER_A',
      providers: [{ code: 'PROVIDER_A' }, { code: 'PROVIDER_B' }],
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
    });
  });

  it('changes an account and refuses bad input', async () => {
    const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Feira', wallet: false, cashin_provider: 'PROVIDER_C' });
    const id = opened.body.account_id;
    const changed = await admin(system, 'PATCH', `/admin/accounts/${id}`, { wallet: true, providers: [{ code: 'PROVIDER_B', credentials: { client_id: 'c', client_secret: 's' } }] });
    expect(changed).toEqual({ status: 200, body: { ...opened.body, wallet: true, providers: [{ code: 'PROVIDER_B' }] } });
    expect((await admin(system, 'PATCH', `/admin/accounts/${id}`, { wallet: 'yes' })).body).toEqual({ type: 'ValidationError', message: 'body.wallet must be true or false' });
    expect((await admin(system, 'PATCH', `/admin/accounts/${id}`, {})).status).toBe(400);
    expect(await admin(system, 'PATCH', '/admin/accounts/00000000-0000-0000-0000-000000000000', { wallet: true })).toEqual({ status: 404, body: { message: 'Account not found' } });
    expect((await admin(system, 'POST', '/admin/accounts', { name: '' })).status).toBe(400);
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
    expect(await admin(system, 'DELETE', '/admin/api-keys/key_unknown')).toEqual({ status: 404, body: { message: 'Api key not found' } });
  });
});
