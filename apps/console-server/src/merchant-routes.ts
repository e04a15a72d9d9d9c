import type { SandboxPaths } from '@pixauto/api-client';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * The merchant API routes the console's pages call, and nothing else: the way to the merchant API is not a general
 * proxy (no API reference, no OpenAPI document, no route the page has no use for is served on the console's origin).
 * Typed against the sandbox API's paths, so a route the API drops breaks this build as it breaks the page's.
 */
const CONSOLE_ROUTES: ReadonlyArray<readonly [Method, keyof SandboxPaths]> = [
  ['GET', '/v2/automatic-pix/recurrences'],
  ['POST', '/v2/automatic-pix/recurrences'],
  ['GET', '/v2/automatic-pix/recurrences/{recurrence_id}'],
  ['PATCH', '/v2/automatic-pix/recurrences/{recurrence_id}'],
  ['GET', '/v2/automatic-pix/recurrences/{recurrence_id}/charges'],
  ['GET', '/v2/automatic-pix/charges'],
  ['POST', '/v2/automatic-pix/charges/{charge_id}/retry'],
  ['GET', '/v2/limits'],
  ['POST', '/v2/limits'],
  ['GET', '/v2/pix'],
  ['POST', '/v2/pix'],
  ['GET', '/v2/pix/charges'],
  ['POST', '/v2/payout/pix'],
  ['GET', '/v2/transactions/refunds'],
  ['POST', '/v2/transactions/refund'],
  ['GET', '/v2/transactions/refund/receipt'],
  ['GET', '/v2/disputes'],
  ['GET', '/v2/disputes/{id}'],
  ['POST', '/v2/disputes/{id}/defence'],
  ['GET', '/v2/webhooks/deliveries'],
  ['GET', '/v2/webhooks/deliveries/{id}'],
  ['POST', '/v2/webhooks/deliveries/{id}/retry'],
  ['POST', '/v2/webhooks/deliveries/retry'],
  ['POST', '/v2/webhooks/test-events'],
  ['GET', '/v2/webhooks/endpoints'],
  ['POST', '/v2/webhooks/endpoints'],
  ['GET', '/v2/webhooks/endpoints/{endpoint_id}'],
  ['PATCH', '/v2/webhooks/endpoints/{endpoint_id}'],
  ['DELETE', '/v2/webhooks/endpoints/{endpoint_id}'],
  ['GET', '/v2/webhooks/endpoints/{endpoint_id}/secret'],
  ['POST', '/v2/webhooks/endpoints/{endpoint_id}/secret/rotate'],
  ['POST', '/v2/webhooks/endpoints/{endpoint_id}/test'],
  ['GET', '/v2/withdrawals'],
  ['GET', '/v2/withdrawals/customer'],
  ['GET', '/v2/reports/daily-totals'],
  ['GET', '/v2/withdrawals/period'],
  ['GET', '/v2/withdrawals/period/csv'],
  ['GET', '/v2/withdrawals/receipt'],
  ['GET', '/v2/withdrawals/refund/receipt'],
  ['GET', '/v2/sandbox/clock'],
  ['POST', '/v2/sandbox/clock/advance'],
  ['POST', '/v2/sandbox/charges/{charge_id}/pay'],
  ['POST', '/v2/sandbox/charges/{charge_id}/fail'],
  ['POST', '/v2/sandbox/payouts/{id}/status'],
  ['POST', '/v2/sandbox/payouts/{id}/return'],
  ['POST', '/v2/sandbox/pix/{id}/pay'],
  ['POST', '/v2/sandbox/recurrences/{recurrence_id}/authorize'],
  ['POST', '/v2/sandbox/recurrences/{recurrence_id}/reject'],
  ['POST', '/v2/sandbox/refunds/{id}/settle'],
  ['POST', '/v2/sandbox/transactions/{id}/dispute'],
];

/**
 * Routes an owner alone may call, whatever the environment: a webhook endpoint's signing secret, read or rotated
 * (as the account's own secret, WebhookSecretController). The request also names its user, a read included, so the
 * audit log says who saw the secret.
 */
const OWNER_ONLY_ROUTES = [/^\/v2\/webhooks\/endpoints\/[^/]+\/secret(\/rotate)?$/];

/** Whether only an owner may call this path (already resolved by `new URL`). */
export const isOwnerOnlyRoute = (pathname: string): boolean => OWNER_ONLY_ROUTES.some((pattern) => pattern.test(pathname));

/** A path parameter is one segment: anything but a slash (as sent, percent-encoded). */
const PATTERNS = CONSOLE_ROUTES.map(([method, template]) => ({
  method,
  pattern: new RegExp(`^${template.replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
}));

/** Whether the console passes this method and path (already resolved by `new URL`, dot segments gone) to the merchant API. */
export function isConsoleRoute(method: string, pathname: string): boolean {
  const asked = method === 'HEAD' ? 'GET' : method;
  return PATTERNS.some(({ method: allowed, pattern }) => allowed === asked && pattern.test(pathname));
}

/**
 * The merchant API URL for the path after `/{environment}/api/` (the route's own parameter, decoded by the router)
 * and the request's query: each segment encoded again, resolved against the API's base URL with `new URL`, and
 * refused (undefined) unless it stays on that API's origin and is a route the console calls.
 */
export function merchantApiUrl(baseUrl: string, method: string, path: string, rawUrl: string): URL | undefined {
  const base = new URL(baseUrl);
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?')) : '';
  let url: URL;
  try {
    url = new URL(`/${path.split('/').map(encodeURIComponent).join('/')}${query}`, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin || url.username !== '' || url.password !== '') return undefined;
  return isConsoleRoute(method, url.pathname) ? url : undefined;
}
