import { WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { parseDeliveriesQuery, parseDeliveryFilters } from './deliveries-query';

describe('parseDeliveriesQuery', () => {
  it('defaults to the newest 20, from page 0', () => {
    expect(parseDeliveriesQuery({})).toEqual({ ok: true, value: { page: 0, page_size: 20 } });
  });

  it('takes every filter; a day as end means the whole day in Brasília', () => {
    const parsed = parseDeliveriesQuery({
      status: 'failed',
      event_type: 'charge.paid',
      resource_id: 'r1',
      start: '2026-11-01',
      end: '2026-11-01',
      page: '2',
      page_size: '50',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        status: 'failed',
        event_type: 'charge.paid',
        resource_id: 'r1',
        start: new Date('2026-11-01T03:00:00Z'),
        end: new Date('2026-11-02T03:00:00Z'),
        page: 2,
        page_size: 50,
      },
    });
    expect(parseDeliveriesQuery({ start: '2026-11-01T10:00:00-03:00' })).toMatchObject({ ok: true, value: { start: new Date('2026-11-01T13:00:00Z') } });
  });

  it('refuses each bad value with its own message, all at once', () => {
    const parsed = parseDeliveriesQuery({ status: 'done', event_type: 'nope', start: '2026-02-30', end: 'yesterday', page: '-1', page_size: '101' });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.refusal).toMatchObject({
      problems: [
        'query.status must be one of pending, delivered, failed, cancelled',
        `query.event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
        'query.start must be a date (YYYY-MM-DD) or a date-time with its zone (ISO 8601)',
        'query.end must be a date (YYYY-MM-DD) or a date-time with its zone (ISO 8601)',
        'query.page must be an integer of at least 0',
        'query.page_size must be an integer from 1 to 100',
      ],
    });
  });

  it('refuses a period that ends before it starts, a repeated or long resource_id and a page size of 0', () => {
    expect(parseDeliveriesQuery({ start: '2026-11-02', end: '2026-11-01' })).toMatchObject({
      ok: false,
      refusal: { problems: ['query.start must be before query.end'] },
    });
    expect(parseDeliveriesQuery({ resource_id: ['a', 'b'] })).toMatchObject({
      ok: false,
      refusal: { problems: ['query.resource_id must be a string of at most 100 characters'] },
    });
    expect(parseDeliveriesQuery({ resource_id: 'x'.repeat(101) }).ok).toBe(false);
    expect(parseDeliveriesQuery({ page_size: '0' }).ok).toBe(false);
  });
});

describe('parseDeliveryFilters', () => {
  it('takes the filters of the list, without its page', () => {
    expect(parseDeliveryFilters({ status: 'failed', event_type: 'payout.created', page: '3', page_size: '0' })).toEqual({
      ok: true,
      value: { status: 'failed', event_type: 'payout.created' },
    });
    expect(parseDeliveryFilters({})).toEqual({ ok: true, value: {} });
  });

  it('refuses the bad values the list refuses, with the same messages', () => {
    expect(parseDeliveryFilters({ status: 'given-up', start: '2026-11-02', end: '2026-11-01' })).toMatchObject({
      ok: false,
      refusal: { problems: ['query.status must be one of pending, delivered, failed, cancelled', 'query.start must be before query.end'] },
    });
  });
});

describe('the endpoint_id filter', () => {
  it('takes a webhook endpoint id (any case, read in lower case), and refuses anything else', () => {
    expect(parseDeliveryFilters({ endpoint_id: '3F0C2A64-1B7E-4D8A-9C1E-2F3A4B5C6D7E' })).toEqual({
      ok: true,
      value: { endpoint_id: '3f0c2a64-1b7e-4d8a-9c1e-2f3a4b5c6d7e' },
    });
    for (const endpoint_id of ['nope', '', ['3f0c2a64-1b7e-4d8a-9c1e-2f3a4b5c6d7e']]) {
      expect(parseDeliveriesQuery({ endpoint_id })).toMatchObject({
        ok: false,
        refusal: { problems: ['query.endpoint_id must be a webhook endpoint id (a UUID)'] },
      });
    }
  });
});
