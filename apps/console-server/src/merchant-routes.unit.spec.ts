import { isConsoleRoute, isOwnerOnlyRoute, merchantApiUrl } from './merchant-routes';

// The way to the merchant API passes the routes the console's pages call, on the configured API's origin, and nothing else.

const BASE = 'http://127.0.0.1:3001';

describe('merchantApiUrl', () => {
  it('passes a route the console calls, with its query as sent', () => {
    expect(merchantApiUrl(BASE, 'GET', 'v2/withdrawals/period', '/console/v1/sandbox/api/v2/withdrawals/period?start=2026-11-01&page=0')?.href).toBe(
      'http://127.0.0.1:3001/v2/withdrawals/period?start=2026-11-01&page=0',
    );
    expect(merchantApiUrl(BASE, 'POST', 'v2/sandbox/recurrences/rec_1/authorize', '/x')?.href).toBe(
      'http://127.0.0.1:3001/v2/sandbox/recurrences/rec_1/authorize',
    );
  });

  it('refuses what the console does not call: the API reference, its document, a method the page never uses', () => {
    expect(merchantApiUrl(BASE, 'GET', 'docs', '/x')).toBeUndefined();
    expect(merchantApiUrl(BASE, 'GET', 'openapi.json', '/x')).toBeUndefined();
    expect(merchantApiUrl(BASE, 'DELETE', 'v2/limits', '/x')).toBeUndefined();
    expect(merchantApiUrl(BASE, 'GET', 'v2/automatic-pix/recurrences/a/b/charges', '/x')).toBeUndefined();
  });

  it('never leaves the API: a host, userinfo or dot segments in the path stay a path (and then no route)', () => {
    for (const path of ['@evil.example/v2/limits', '/evil.example/v2/limits', '\\\\evil.example/v2/limits', 'v2/pix/../../docs', 'v2/pix/%2e%2e/x']) {
      const url = merchantApiUrl(BASE, 'GET', path, '/x');
      expect(url === undefined || url.origin === BASE).toBe(true);
      expect(url).toBeUndefined();
    }
    // A decoded slash inside a parameter is encoded back into the one segment it was.
    expect(merchantApiUrl(BASE, 'GET', 'v2/automatic-pix/recurrences/a/b', '/x')).toBeUndefined();
    expect(merchantApiUrl(BASE, 'GET', 'v2/automatic-pix/recurrences/a?b', '/x')?.pathname).toBe('/v2/automatic-pix/recurrences/a%3Fb');
  });

  it("passes the overview's one read of its figures", () => {
    expect(merchantApiUrl(BASE, 'GET', 'v2/reports/daily-totals', '/console/v1/sandbox/api/v2/reports/daily-totals')?.href).toBe(
      'http://127.0.0.1:3001/v2/reports/daily-totals',
    );
    expect(merchantApiUrl(BASE, 'POST', 'v2/reports/daily-totals', '/x')).toBeUndefined();
  });

  it('answers HEAD as the GET it is', () => {
    expect(isConsoleRoute('HEAD', '/v2/limits')).toBe(true);
  });
});

describe('webhook endpoints', () => {
  it('passes their routes, DELETE included, and no other DELETE', () => {
    const id = '3f0c2a64-1b7e-4d8a-9c1e-2f3a4b5c6d7e';
    for (const [method, path] of [
      ['GET', '/v2/webhooks/endpoints'],
      ['POST', '/v2/webhooks/endpoints'],
      ['GET', `/v2/webhooks/endpoints/${id}`],
      ['PATCH', `/v2/webhooks/endpoints/${id}`],
      ['DELETE', `/v2/webhooks/endpoints/${id}`],
      ['GET', `/v2/webhooks/endpoints/${id}/secret`],
      ['POST', `/v2/webhooks/endpoints/${id}/secret/rotate`],
      ['POST', `/v2/webhooks/endpoints/${id}/test`],
    ])
      expect({ method, path, passed: isConsoleRoute(method, path) }).toEqual({ method, path, passed: true });
    expect(isConsoleRoute('DELETE', '/v2/webhooks/endpoints')).toBe(false);
    expect(isConsoleRoute('DELETE', '/v2/webhooks/deliveries/msg_1')).toBe(false);
    expect(isConsoleRoute('PATCH', `/v2/webhooks/endpoints/${id}/secret`)).toBe(false);
  });

  it("keeps an endpoint's secret, read or rotated, for owners", () => {
    expect(isOwnerOnlyRoute('/v2/webhooks/endpoints/abc/secret')).toBe(true);
    expect(isOwnerOnlyRoute('/v2/webhooks/endpoints/abc/secret/rotate')).toBe(true);
    expect(isOwnerOnlyRoute('/v2/webhooks/endpoints/abc')).toBe(false);
    expect(isOwnerOnlyRoute('/v2/webhooks/endpoints/abc/test')).toBe(false);
    expect(isOwnerOnlyRoute('/v2/webhooks/endpoints')).toBe(false);
  });
});
