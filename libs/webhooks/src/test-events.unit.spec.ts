import { PayoutResponse, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from '@pixauto/contracts';
import { sampleData, testNotification } from './test-events';

const AT = new Date('2026-11-25T12:00:00.000Z');
const URL = 'https://merchant.example/hooks';
const TENANT = { accountId: 'a1', environment: 'sandbox' as const };

describe('test events', () => {
  it('has a sample of every event type, about a resource of its kind, with its own group', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const notification = testNotification('msg_1', TENANT, type, URL, AT);
      expect({ type, resource: notification.resource_type, group: notification.group_id }).toEqual({
        type,
        resource: WEBHOOK_EVENTS[type].resource,
        group: 'test:msg_1',
      });
      expect(notification.payload).toEqual({ type, environment: 'sandbox', timestamp: '2026-11-25T12:00:00.000Z', data: sampleData(type, AT, URL).data });
      expect(testNotification('msg_2', { ...TENANT, environment: 'production' }, type, URL, AT).payload.environment).toBe('production');
      expect(notification).toMatchObject({ id: 'msg_1', tenant: TENANT, event_type: type, url: URL, sequence: 1 });
    }
  });

  it('shows the resource as the event leaves it', () => {
    const status = (type: (typeof WEBHOOK_EVENT_TYPES)[number]) => (sampleData(type, AT, URL).data as { status: unknown }).status;
    expect(status('recurrence.created')).toBe('CREATED');
    expect(status('recurrence.approved')).toBe('APPROVED');
    expect(status('recurrence.cancelled')).toBe('CANCELLED');
    expect(status('charge.created')).toBe('SCHEDULED');
    expect(status('charge.paid')).toBe('PAID');
    expect(status('charge.failed')).toBe('FAILED');
    expect(status('pix_charge.paid')).toBe('PAID');
    expect(status('pix_charge.expired')).toBe('EXPIRED');
    expect(status('pix_charge.refund_requested')).toBe('PROCESSING');
    expect(status('pix_charge.refunded')).toBe('REFUNDED');
    expect(status('due_date_charge.paid')).toBe('PAID');
    expect(status('due_date_charge.expired')).toBe('EXPIRED');
    expect(status('due_date_charge.cancelled')).toBe('CANCELLED');
    expect(status('payout.created')).toBe(0);
    expect(status('payout.status_changed')).toBe(1);
  });

  it('gives a payout its webhook, and a completed one its payment time and end-to-end id', () => {
    const created = sampleData('payout.created', AT, URL).data as PayoutResponse;
    expect(created).toMatchObject({ webhook: URL, created_at: AT.toISOString() });
    expect(created.paid_at).toBeUndefined();
    const returned = sampleData('payout.returned', AT, URL).data as PayoutResponse;
    expect(returned).toMatchObject({ status: 1, paid_at: AT.toISOString(), e2e: expect.stringMatching(/^E\d{8}/), refund_id: expect.any(String) });
  });
});
