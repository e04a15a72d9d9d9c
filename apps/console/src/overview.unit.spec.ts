import { describe, expect, it } from '@jest/globals';
import { nothingMoved, scaleTop, volumeOf, type DailyTotals } from './overview';

const zero = { count: 0, amount: 0 };
const day = (date: string, payouts = zero) => ({ day: date, automatic_pix_charges_paid: zero, pix_charges_paid: zero, refunds: zero, payouts });
const report = (days: ReturnType<typeof day>[], payouts = zero): DailyTotals => ({
  start_day: days[0].day,
  end_day: days[days.length - 1].day,
  days,
  totals: { automatic_pix_charges_paid: zero, pix_charges_paid: zero, refunds: zero, payouts },
  rejected_payouts: 0,
  failed_webhook_deliveries: 0,
  failed_charges: { count: 0, latest: [] },
});

describe("the overview's figures", () => {
  it("takes one kind's figures day by day, oldest first, as the API summed them", () => {
    const totals = report([day('2026-11-25'), day('2026-11-26', { count: 2, amount: 0.3 })], { count: 2, amount: 0.3 });
    expect(volumeOf(totals, 'payouts')).toEqual([
      { day: '2026-11-25', count: 0, amount: 0 },
      { day: '2026-11-26', count: 2, amount: 0.3 },
    ]);
    expect(volumeOf(totals, 'refunds')).toEqual([
      { day: '2026-11-25', count: 0, amount: 0 },
      { day: '2026-11-26', count: 0, amount: 0 },
    ]);
    expect(nothingMoved(totals)).toBe(false);
  });

  it('tells a period where nothing moved', () => {
    expect(nothingMoved(report([day('2026-11-26')]))).toBe(true);
  });
});

describe("a chart's scale", () => {
  it.each([
    [0, 1],
    [0.3, 0.5],
    [1, 1],
    [7, 10],
    [101, 200],
    [1999.9, 2000],
    [2001, 5000],
  ])('tops %p at %p', (largest, top) => {
    expect(scaleTop(largest)).toBeCloseTo(top);
  });
});
