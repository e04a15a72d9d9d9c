import { joinProblems } from '@pixauto/errors';
import { paginationOf } from '../period-page';
import { validateListPixCharges } from './pix-charge';
import { validateListRefunds } from './refund';

const START = '2026-03-01T00:00:00-03:00';
const END = '2026-03-31T23:59:59.999Z';

type Validator = typeof validateListPixCharges | typeof validateListRefunds;
const messageOf = (validate: Validator, query: unknown): string | undefined => {
  const result = validate(query);
  return result.ok ? undefined : result.refusal.kind === 'validation' ? joinProblems(result.refusal.problems) : 'not validation';
};

describe('validateListPixCharges', () => {
  it('defaults to the first page of 100, every status', () => {
    expect(validateListPixCharges({ start: START, end: END })).toEqual({
      ok: true,
      value: { start: START, end: END, page: 0, page_size: 100, status: undefined },
    });
  });

  it.each(['PENDING', 'PAID', 'EXPIRED'])('filters by status %s, and caps page_size at 100', (status) => {
    expect(validateListPixCharges({ start: START, end: END, status, page: '3', page_size: '101' })).toEqual({
      ok: true,
      value: { start: START, end: END, page: 3, page_size: 100, status },
    });
  });

  it('reads an empty status as no filter', () => {
    expect(validateListPixCharges({ start: START, end: END, status: '' })).toMatchObject({ ok: true, value: { status: undefined } });
  });

  it.each(['paid', 'REFUNDED', 'CANCELLED', ['PAID', 'PENDING']])('refuses status %p with the values it takes', (status) => {
    expect(messageOf(validateListPixCharges, { start: START, end: END, status })).toBe(
      'query.status must be one of the following values: PENDING, PAID, EXPIRED',
    );
  });

  it('names every problem in one message, the missing period first', () => {
    expect(messageOf(validateListPixCharges, { start: 'yesterday', page: '-1', page_size: '0', status: 'DONE' })).toBe(
      'start and end are required. query.status must be one of the following values: PENDING, PAID, EXPIRED. ' +
        'query.start must be an ISO 8601 date-time with a time zone. query.page must be an integer of at least 0. query.page_size must be an integer of at least 1',
    );
  });
});

describe('validateListRefunds', () => {
  it('takes the period and page as the recurrences list does', () => {
    expect(validateListRefunds({ start: START, end: END, page: '1', page_size: '20' })).toEqual({
      ok: true,
      value: { start: START, end: END, page: 1, page_size: 20 },
    });
  });

  it.each([{}, { start: START }, { end: END }, { start: START, end: '' }])('requires start and end: %p', (query) => {
    expect(messageOf(validateListRefunds, query)).toBe('start and end are required');
  });

  it('wants a date-time with a time zone', () => {
    expect(messageOf(validateListRefunds, { start: START, end: '2026-03-31' })).toBe('query.end must be an ISO 8601 date-time with a time zone');
  });
});

describe('paginationOf', () => {
  it.each([
    [0, 100, 0, 0],
    [0, 2, 3, 2],
    [5, 2, 4, 2],
    [0, 100, 100, 1],
    [0, 100, 101, 2],
  ])('page %i of %i with %i items: %i pages', (page, pageSize, total, pages) => {
    expect(paginationOf({ page, page_size: pageSize }, total)).toEqual({ current_page: page, page_size: pageSize, total_pages: pages, total_items: total });
  });
});
