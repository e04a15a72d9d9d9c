import { joinProblems } from '@pixauto/errors';
import { validateListRecurrences } from './list-recurrences';

const START = '2026-03-01T00:00:00-03:00';
const END = '2026-03-31T23:59:59.999Z';

const messageOf = (query: unknown): string | undefined => {
  const result = validateListRecurrences(query);
  return result.ok ? undefined : result.refusal.kind === 'validation' ? joinProblems(result.refusal.problems) : 'not validation';
};
const valueOf = (query: unknown) => {
  const result = validateListRecurrences(query);
  if (!result.ok) throw new Error(JSON.stringify(result.refusal));
  return result.value;
};

describe('validateListRecurrences', () => {
  it('defaults to the first page of 100', () => {
    expect(valueOf({ start: START, end: END })).toEqual({ start: START, end: END, page: 0, page_size: 100 });
  });

  it('reads page and page_size from their text, and caps page_size at 100', () => {
    expect(valueOf({ start: START, end: END, page: '2', page_size: '25' })).toMatchObject({ page: 2, page_size: 25 });
    expect(valueOf({ start: START, end: END, page: '0', page_size: '500' })).toMatchObject({ page: 0, page_size: 100 });
    expect(valueOf({ start: START, end: END, page_size: '1'.repeat(30) })).toMatchObject({ page_size: 100 });
  });

  it.each([{}, { start: START }, { end: END }, { start: '', end: END }, undefined])('requires start and end: %p', (query) => {
    expect(messageOf(query)).toBe('start and end are required');
  });

  it.each(['2026-03-01', '2026-03-01T00:00:00', '2026-03-01 00:00:00Z', '2026-02-30T00:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T00:00:00+0300'])(
    'wants a date-time with a time zone, not %p',
    (start) => {
      expect(messageOf({ start, end: END })).toBe('query.start must be an ISO 8601 date-time with a time zone');
      expect(messageOf({ start: START, end: start })).toBe('query.end must be an ISO 8601 date-time with a time zone');
    },
  );

  it.each(['-1', '1.5', 'first', ['1', '2']])('refuses page %p', (page) => {
    expect(messageOf({ start: START, end: END, page })).toBe('query.page must be an integer of at least 0');
  });

  it.each(['0', '-5', '10.0', 'all'])('refuses page_size %p', (page_size) => {
    expect(messageOf({ start: START, end: END, page_size })).toBe('query.page_size must be an integer of at least 1');
  });

  it('names every problem in one message', () => {
    expect(messageOf({ end: 'yesterday', page: 'x', page_size: '0' })).toBe(
      'start and end are required. query.end must be an ISO 8601 date-time with a time zone. ' +
        'query.page must be an integer of at least 0. query.page_size must be an integer of at least 1',
    );
  });
});
