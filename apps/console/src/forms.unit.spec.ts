import { describe, expect, it } from '@jest/globals';
import { brasiliaDays, brasiliaDaysInUtc, brasiliaTime, dayBefore, reais } from './forms';

describe('brasiliaDaysInUtc', () => {
  it('gives whole Brasília days as UTC seconds, the last one included: an evening in Brasília is the next UTC date', () => {
    expect(brasiliaDaysInUtc('2026-11-27', '2026-11-27')).toEqual({ start: '2026-11-27 03:00:00', end: '2026-11-28 02:59:59' });
    expect(brasiliaDaysInUtc('2026-12-31', '2027-01-01')).toEqual({ start: '2026-12-31 03:00:00', end: '2027-01-02 02:59:59' });
  });
});

describe('brasiliaDays', () => {
  it('runs from the first day at midnight to the midnight after the last, in Brasília time', () => {
    expect(brasiliaDays('2026-11-01', '2026-11-26')).toEqual({ start: '2026-11-01T00:00:00-03:00', end: '2026-11-27T00:00:00-03:00' });
  });

  it('crosses months and years', () => {
    expect(brasiliaDays('2026-12-31', '2026-12-31')).toEqual({ start: '2026-12-31T00:00:00-03:00', end: '2027-01-01T00:00:00-03:00' });
    expect(brasiliaDays('2028-02-28', '2028-02-28').end).toBe('2028-02-29T00:00:00-03:00');
  });
});

describe('dayBefore', () => {
  it('counts back across months and years', () => {
    expect(dayBefore('2026-11-26', 29)).toBe('2026-10-28');
    expect(dayBefore('2027-01-01', 1)).toBe('2026-12-31');
    expect(dayBefore('2026-03-01', 0)).toBe('2026-03-01');
  });
});

describe('brasiliaTime', () => {
  it('reads an instant three hours behind UTC, across midnight', () => {
    expect(brasiliaTime('2026-11-26T12:30:15.123Z')).toBe('2026-11-26 09:30:15');
    expect(brasiliaTime('2026-11-26T02:59:59.000Z')).toBe('2026-11-25 23:59:59');
  });
});

describe('reais', () => {
  it('takes a decimal comma or point', () => {
    expect(reais('19,90')).toBe(19.9);
    expect(reais('19.90')).toBe(19.9);
  });
});
