import { describe, expect, it } from '@jest/globals';
import {
  brasiliaDay,
  cashInCreatedSince,
  chargesFailed,
  chargesPaid,
  dailyVolume,
  daysUpTo,
  payoutsSent,
  refundsMade,
  scaleTop,
  startOfBrasiliaDay,
  totalOf,
} from './overview';

describe("the overview's days", () => {
  it('counts an instant on its Brasília day, which starts at 03:00 UTC', () => {
    expect(brasiliaDay('2026-11-26T02:59:59.999Z')).toBe('2026-11-25');
    expect(brasiliaDay('2026-11-26T03:00:00.000Z')).toBe('2026-11-26');
    expect(startOfBrasiliaDay('2026-11-26')).toBe('2026-11-26T03:00:00.000Z');
  });

  it('lists the days up to today, oldest first, across a month and a year', () => {
    expect(daysUpTo('2027-01-01', 3)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(daysUpTo('2026-03-01', 30)).toHaveLength(30);
    expect(daysUpTo('2026-03-01', 30)[0]).toBe('2026-01-31');
  });
});

describe('daily volume', () => {
  const days = daysUpTo('2026-11-26', 3);

  it('adds each item to its day in cents, leaving out days outside the period, and keeps empty days', () => {
    const volume = dailyVolume(
      [
        { at: '2026-11-26T12:00:00Z', amount: 0.1 },
        { at: '2026-11-26T13:00:00Z', amount: 0.2 },
        { at: '2026-11-25T02:00:00Z', amount: 5 }, // 23:00 on the 24th in Brasília
        { at: '2026-11-23T12:00:00Z', amount: 99 }, // before the period
      ],
      days,
    );
    expect(volume).toEqual([
      { day: '2026-11-24', count: 1, amount: 5 },
      { day: '2026-11-25', count: 0, amount: 0 },
      { day: '2026-11-26', count: 2, amount: 0.3 },
    ]);
    expect(totalOf(volume)).toEqual({ count: 3, amount: 5.3 });
  });

  it('counts payouts that went or are going out, not the canceled or rejected ones', () => {
    const at = '2026-11-26T12:00:00Z';
    const sent = payoutsSent([0, 1, 2, 3, 4].map((status) => ({ status, amount: 10 + status, created_at: at })));
    expect(sent).toEqual([
      { at, amount: 10 },
      { at, amount: 11 },
      { at, amount: 14 },
    ]);
  });

  it('counts charges paid on the day they were paid, and failed ones due in the period', () => {
    const charges = [
      { status: 'PAID', amount: 20, paid_at: '2026-11-25T15:00:00Z', due_date: '2026-11-25' },
      { status: 'SCHEDULED', amount: 20, paid_at: null, due_date: '2026-11-26' },
      { status: 'FAILED', amount: 20, paid_at: null, due_date: '2026-11-26' },
      { status: 'FAILED', amount: 20, paid_at: null, due_date: '2026-10-01' },
    ];
    expect(chargesPaid(charges)).toEqual([{ at: '2026-11-25T15:00:00Z', amount: 20 }]);
    expect(chargesFailed(charges, days)).toEqual([charges[2]]);
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

describe('cash-in and refunds', () => {
  const days = daysUpTo('2026-11-26', 2);

  it('counts a Pix charge PAID on the Brasília day it was paid, not the day it was created; PENDING and EXPIRED ones not at all', () => {
    const charges = [
      { status: 'PAID', amount: 99.9, created_at: '2026-11-25T02:00:00.000Z', paid_at: '2026-11-25T03:30:00.000Z' }, // created the 24th, paid the 25th
      { status: 'PAID', amount: 0.1, created_at: '2026-11-26T10:00:00.000Z', paid_at: '2026-11-26T10:01:00.000Z' },
      { status: 'PENDING', amount: 50, created_at: '2026-11-26T11:00:00.000Z', paid_at: null },
      { status: 'EXPIRED', amount: 70, created_at: '2026-11-25T11:00:00.000Z', paid_at: null },
    ];
    expect(dailyVolume(chargesPaid(charges), days)).toEqual([
      { day: '2026-11-25', count: 1, amount: 99.9 },
      { day: '2026-11-26', count: 1, amount: 0.1 },
    ]);
  });

  it('reads the Pix charges created from a day before the period, the longest a charge stays payable', () => {
    expect(cashInCreatedSince('2026-10-28T03:00:00.000Z')).toBe('2026-10-27T03:00:00.000Z');
  });

  it('counts refunds on the day they were asked for, PROCESSING and REFUNDED alike, and leaves out the FAILED ones', () => {
    const refunds = [
      { status: 'REFUNDED', amount: 10, created_at: '2026-11-25T12:00:00.000Z', refunded_at: '2026-11-26T12:00:00.000Z' },
      { status: 'PROCESSING', amount: 2.5, created_at: '2026-11-26T12:00:00.000Z', refunded_at: null },
      { status: 'FAILED', amount: 100, created_at: '2026-11-26T13:00:00.000Z', refunded_at: null },
    ];
    expect(refundsMade(refunds)).toEqual([
      { at: '2026-11-25T12:00:00.000Z', amount: 10 },
      { at: '2026-11-26T12:00:00.000Z', amount: 2.5 },
    ]);
    expect(dailyVolume(refundsMade(refunds), days)).toEqual([
      { day: '2026-11-25', count: 1, amount: 10 },
      { day: '2026-11-26', count: 1, amount: 2.5 },
    ]);
  });
});
