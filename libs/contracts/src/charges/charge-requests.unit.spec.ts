import { describe, expect, it } from '@jest/globals';
import { validateListChargesDue } from './charge-requests';

describe('validateListChargesDue', () => {
  it('takes a period of due dates, both included, a status and a page, 100 a page at most', () => {
    expect(validateListChargesDue({ due_from: '2026-11-01', due_to: '2026-11-30', status: 'PAID', page: '2', page_size: '500' })).toEqual({
      ok: true,
      value: { due_from: '2026-11-01', due_to: '2026-11-30', status: 'PAID', page: 2, page_size: 100 },
    });
    expect(validateListChargesDue({ due_from: '2026-11-01', due_to: '2026-11-01', status: '' })).toEqual({
      ok: true,
      value: { due_from: '2026-11-01', due_to: '2026-11-01', status: undefined, page: 0, page_size: 100 },
    });
  });

  it('refuses with every problem in one message, the missing period first', () => {
    const message = (query: unknown) => {
      const checked = validateListChargesDue(query);
      return checked.ok ? undefined : (checked.refusal as { problems: string[] }).problems;
    };
    expect(message({ due_to: '2026-11-31', status: 'LATE', page: '-1' })).toEqual([
      'due_from and due_to are required',
      'query.due_to is not a valid date',
      'query.status must be one of the following values: SCHEDULED, PAID, FAILED, CANCELLED, EXPIRED',
      'query.page must be an integer of at least 0',
    ]);
    expect(message({ due_from: '01/11/2026', due_to: '2026-11-30', page_size: '0' })).toEqual([
      'query.due_from must be YYYY-MM-DD',
      'query.page_size must be an integer of at least 1',
    ]);
    expect(message({ due_from: '2026-11-30', due_to: '2026-11-01' })).toEqual(['query.due_to must not be before query.due_from']);
  });
});
