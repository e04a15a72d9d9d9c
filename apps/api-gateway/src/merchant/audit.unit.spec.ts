import { endpointAuditAction } from './audit';

// Which webhook endpoint requests the audit log records (docs/decisions/audit-log.md): every change, and the secret
// revealed or rotated; never a plain read or a test event.

describe('endpointAuditAction', () => {
  it.each([
    ['POST', '/v2/webhooks/endpoints', 'webhook_endpoint.created'],
    ['PATCH', '/v2/webhooks/endpoints/:endpoint_id', 'webhook_endpoint.updated'],
    ['DELETE', '/v2/webhooks/endpoints/:endpoint_id', 'webhook_endpoint.deleted'],
    ['GET', '/v2/webhooks/endpoints/:endpoint_id/secret', 'webhook_endpoint.secret_revealed'],
    ['POST', '/v2/webhooks/endpoints/:endpoint_id/secret/rotate', 'webhook_endpoint.secret_rotated'],
  ])('%s %s is %s', (method, route, action) => {
    expect(endpointAuditAction(method, route)).toBe(action);
  });

  it.each([
    ['GET', '/v2/webhooks/endpoints'],
    ['GET', '/v2/webhooks/endpoints/:endpoint_id'],
    ['POST', '/v2/webhooks/endpoints/:endpoint_id/test'],
    ['POST', '/v2/webhooks/test-events'],
    ['POST', '/v2/limits'],
  ])('%s %s records nothing', (method, route) => {
    expect(endpointAuditAction(method, route)).toBeUndefined();
  });
});
