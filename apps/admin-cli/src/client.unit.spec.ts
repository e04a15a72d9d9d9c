import { buildInit, buildUrl, describeResponse, formatBody, send } from './client';
import { AdminRequest } from './commands';

const show: AdminRequest = { method: 'GET', path: '/admin/accounts/acc_1' };
const create: AdminRequest = { method: 'POST', path: '/admin/accounts', body: { name: 'Acme', wallet: false } };

describe('request building', () => {
  it('joins ADMIN_URL and the path', () => {
    expect(buildUrl('http://127.0.0.1:3002', show)).toBe('http://127.0.0.1:3002/admin/accounts/acc_1');
    expect(buildUrl('https://x.example/gw/', show)).toBe('https://x.example/gw/admin/accounts/acc_1');
  });
  it('sends the bearer token, and JSON only when there is a body', () => {
    expect(buildInit(show, 'devtoken')).toEqual({ method: 'GET', headers: { authorization: 'Bearer devtoken', accept: 'application/json' } });
    expect(buildInit(create, 'devtoken')).toEqual({
      method: 'POST',
      headers: { authorization: 'Bearer devtoken', accept: 'application/json', 'content-type': 'application/json' },
      body: '{"name":"Acme","wallet":false}',
    });
  });
});

describe('output', () => {
  it('pretty-prints JSON, leaves other text alone, prints nothing for an empty body', () => {
    expect(formatBody('{"a":1,"b":[true]}')).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}\n');
    expect(formatBody('Bad Gateway')).toBe('Bad Gateway\n');
    expect(formatBody('')).toBe('');
  });
  it('prints a success on stdout, exit 0, with the notice on stderr', () => {
    expect(describeResponse(show, 200, 'OK', '{"account_id":"acc_1"}')).toEqual({ exitCode: 0, stdout: '{\n  "account_id": "acc_1"\n}\n', stderr: '' });
    expect(describeResponse({ method: 'DELETE', path: '/admin/api-keys/k', notice: 'API key k revoked.' }, 204, 'No Content', '')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'API key k revoked.\n',
    });
  });
  it('prints an HTTP error with status and body on stderr, exit 1', () => {
    expect(describeResponse(create, 400, 'Bad Request', '{"type":"ValidationError","message":"body.name must be ..."}')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'HTTP 400 Bad Request\n{\n  "type": "ValidationError",\n  "message": "body.name must be ..."\n}\n',
    });
  });
  it('hints at the token on 401 and 403', () => {
    const { exitCode, stderr } = describeResponse(show, 401, 'Unauthorized', '{"code":"UNAUTHORIZED","message":"nope"}');
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^HTTP 401 Unauthorized\n\{\n {2}"code": "UNAUTHORIZED",[\s\S]*Check ADMIN_TOKEN/);
  });
});

describe('send', () => {
  it('calls fetch with the built request and describes the response', async () => {
    const fetch = jest.fn(async () => new Response('{"key_id":"k"}', { status: 201, statusText: 'Created' }));
    const outcome = await send({ ...create, notice: 'keep it' }, { baseUrl: 'http://gw:3002', token: 't', fetch });
    expect(outcome).toEqual({ exitCode: 0, stdout: '{\n  "key_id": "k"\n}\n', stderr: 'keep it\n' });
    expect(fetch).toHaveBeenCalledWith('http://gw:3002/admin/accounts', expect.objectContaining({ method: 'POST', body: '{"name":"Acme","wallet":false}' }));
  });
  it('exits 1 with the cause when the gateway cannot be reached', async () => {
    const fetch = jest.fn(async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    });
    const outcome = await send(show, { baseUrl: 'http://127.0.0.1:1', token: 't', fetch });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:1\/admin\/accounts\/acc_1 failed: fetch failed: ECONNREFUSED\n/);
  });
});
