import { Tenant, WebhookPayload } from '@pixauto/contracts';
import { EndpointTarget, endpointDeliveryIdOf, endpointNotifications, takesEventType } from './endpoint-fanout';
import { WebhookEvent } from './notifications';

const tenant: Tenant = { accountId: 'acc1', environment: 'sandbox' };

const event = (type: string, overrides: Partial<WebhookEvent> = {}): WebhookEvent => ({
  id: `msg_${type.replace(/\W/g, '').padEnd(32, '0').slice(0, 32)}`,
  tenant,
  event_type: type,
  resource_type: 'pix_charge',
  resource_id: '42',
  group_id: 'pix_charge:42',
  sequence: 1,
  url: null,
  payload: { type, environment: 'sandbox', timestamp: '2027-01-01T00:00:00.000Z', data: { id: 42 } } satisfies WebhookPayload,
  ...overrides,
});

const endpoint = (id: string, event_types: string[] = [], overrides: Partial<EndpointTarget> = {}): EndpointTarget => ({
  id,
  account_id: 'acc1',
  environment: 'sandbox',
  url: `https://hooks.example.com/${id}`,
  event_types,
  ...overrides,
});

describe('endpointNotifications', () => {
  it('sends each event to every endpoint of its tenant that takes every type, with the same body, to the endpoint URL', () => {
    const paid = event('pix_charge.paid', { url: 'https://shop.example.com/own' });
    const made = endpointNotifications([paid], [endpoint('e1'), endpoint('e2')]);
    expect(made).toEqual([
      { ...paid, id: endpointDeliveryIdOf(paid.id, 'e1'), group_id: 'endpoint:e1:pix_charge:42', url: 'https://hooks.example.com/e1', endpoint_id: 'e1' },
      { ...paid, id: endpointDeliveryIdOf(paid.id, 'e2'), group_id: 'endpoint:e2:pix_charge:42', url: 'https://hooks.example.com/e2', endpoint_id: 'e2' },
    ]);
    expect(made[0].payload).toBe(paid.payload);
  });

  it('reaches endpoints whether or not the resource has a webhook of its own', () => {
    expect(endpointNotifications([event('pix_charge.created')], [endpoint('e1')])).toHaveLength(1);
  });

  it('keeps to the event types an endpoint takes', () => {
    const events = [event('pix_charge.created'), event('pix_charge.paid'), event('payout.created')];
    const made = endpointNotifications(events, [endpoint('paid-only', ['pix_charge.paid']), endpoint('payouts', ['payout.created', 'payout.status_changed'])]);
    expect(made.map((n) => [n.endpoint_id, n.event_type])).toEqual([
      ['paid-only', 'pix_charge.paid'],
      ['payouts', 'payout.created'],
    ]);
  });

  it('never crosses accounts or environments', () => {
    const production = endpoint('prod', [], { environment: 'production' });
    const other = endpoint('other', [], { account_id: 'acc2' });
    expect(endpointNotifications([event('pix_charge.paid')], [production, other])).toEqual([]);
    expect(endpointNotifications([event('pix_charge.paid', { tenant: { accountId: 'acc1', environment: 'production' } })], [production, other])).toHaveLength(
      1,
    );
  });

  it('makes nothing without endpoints', () => {
    expect(endpointNotifications([event('pix_charge.paid')], [])).toEqual([]);
  });
});

describe('endpointDeliveryIdOf', () => {
  it('is the same for the same event and endpoint, another for another endpoint, in the msg_ form', () => {
    const id = endpointDeliveryIdOf('msg_0123456789abcdef0123456789abcdef', 'e1');
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(endpointDeliveryIdOf('msg_0123456789abcdef0123456789abcdef', 'e1')).toBe(id);
    expect(endpointDeliveryIdOf('msg_0123456789abcdef0123456789abcdef', 'e2')).not.toBe(id);
    expect(id).not.toBe('msg_0123456789abcdef0123456789abcdef');
  });
});

describe('takesEventType', () => {
  it('takes every type when none is listed, else only those listed', () => {
    expect(takesEventType({ event_types: [] }, 'payout.created')).toBe(true);
    expect(takesEventType({ event_types: ['pix_charge.paid'] }, 'pix_charge.paid')).toBe(true);
    expect(takesEventType({ event_types: ['pix_charge.paid'] }, 'pix_charge.created')).toBe(false);
  });
});
