import { auditActionOf } from './audit';

// Which merchant requests the gateway writes to the audit log (docs/decisions/audit-log.md): a customer limit set, every
// webhook endpoint change, and its secret revealed or rotated; never a plain read or a test event.

describe('auditActionOf', () => {
  it.each([
    ['POST', '/v2/limits', 'customer_limit.set'],
    ['POST', '/v2/webhooks/endpoints', 'webhook_endpoint.created'],
    ['PATCH', '/v2/webhooks/endpoints/:endpoint_id', 'webhook_endpoint.updated'],
    ['DELETE', '/v2/webhooks/endpoints/:endpoint_id', 'webhook_endpoint.deleted'],
    ['GET', '/v2/webhooks/endpoints/:endpoint_id/secret', 'webhook_endpoint.secret_revealed'],
    ['POST', '/v2/webhooks/endpoints/:endpoint_id/secret/rotate', 'webhook_endpoint.secret_rotated'],
  ])('%s %s is %s', (method, route, action) => {
    expect(auditActionOf(method, route)).toBe(action);
  });

  it.each([
    ['GET', '/v2/webhooks/endpoints'],
    ['GET', '/v2/webhooks/endpoints/:endpoint_id'],
    ['POST', '/v2/webhooks/endpoints/:endpoint_id/test'],
    ['POST', '/v2/webhooks/test-events'],
    ['GET', '/v2/limits'],
    ['PUT', '/v2/limits'],
    ['POST', undefined],
  ])('%s %s records nothing', (method, route) => {
    expect(auditActionOf(method, route)).toBeUndefined();
  });
});
