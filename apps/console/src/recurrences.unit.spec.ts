import { describe, expect, it } from '@jest/globals';
import { dueDateOf, nextCharge } from './recurrences';

const monthly = { amount: 19.9, schedule: { start_date: '2026-01-31', periodicity: 'MONTHLY' as const } };

describe("a recurrence's next charge", () => {
  it("steps a schedule by its periodicity, a month's end kept within the month", () => {
    expect(dueDateOf('2026-01-31', 'MONTHLY', 1)).toBe('2026-02-28');
    expect(dueDateOf('2026-01-31', 'MONTHLY', 2)).toBe('2026-03-31');
    expect(dueDateOf('2026-11-30', 'QUARTERLY', 1)).toBe('2027-02-28');
    expect(dueDateOf('2026-12-28', 'WEEKLY', 1)).toBe('2027-01-04');
    expect(dueDateOf('2028-02-29', 'ANNUAL', 1)).toBe('2029-02-28');
  });

  it('is the earliest scheduled charge, else the first due date after the charges so far, none past the last date', () => {
    const charge = (due_date: string, status: string, amount = 19.9) => ({ due_date, status, amount });
    expect(nextCharge(monthly, [])).toEqual({ due_date: '2026-01-31', amount: 19.9, scheduled: false });
    expect(nextCharge(monthly, [charge('2026-03-31', 'SCHEDULED', 5), charge('2026-02-28', 'SCHEDULED', 7)])).toEqual({
      due_date: '2026-02-28',
      amount: 7,
      scheduled: true,
    });
    expect(nextCharge(monthly, [charge('2026-01-31', 'PAID'), charge('2026-03-02', 'FAILED')])).toEqual({
      due_date: '2026-03-31',
      amount: 19.9,
      scheduled: false,
    });
    expect(nextCharge({ ...monthly, schedule: { ...monthly.schedule, end_date: '2026-03-15' } }, [charge('2026-02-28', 'PAID')])).toBeUndefined();
  });
});
