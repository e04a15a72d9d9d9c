import fc from 'fast-check';
import { addDays, compareDates, dayOfWeek, daysBetween, daysInMonth, isValidCalendarDate } from './calendar';

// Test oracle: JavaScript's own UTC calendar (allowed here; library code stays free of Date).
const DAY = 24 * 60 * 60 * 1000;
function oracleDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
function oracleMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

const anyDay = fc.integer({ min: oracleMs('1900-01-01') / DAY, max: oracleMs('2200-12-31') / DAY }).map((d) => oracleDate(d * DAY));

describe('isValidCalendarDate', () => {
  it.each(['2026-11-22', '2024-02-29', '2000-02-29', '2026-12-31', '2026-01-01', '2026-04-30'])('%s is ok', (s) => {
    expect(isValidCalendarDate(s)).toBe('ok');
  });

  it.each(['2026-02-30', '2025-02-29', '1900-02-29', '2100-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32'])(
    '%s does not exist',
    (s) => {
      expect(isValidCalendarDate(s)).toBe('invalid');
    },
  );

  it.each([
    '2026-1-05',
    '26-11-22',
    '2026/11/22',
    '22-11-2026',
    '2026-11-22T00:00:00Z',
    ' 2026-11-22',
    '2026-11-22\n',
    '20261122',
    '',
    '２０２６-11-22',
    '+2026-11-22',
  ])('%p is not YYYY-MM-DD', (s) => {
    expect(isValidCalendarDate(s)).toBe('format');
  });

  it('agrees with the UTC calendar on every well-formed string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), (y, m, d) => {
        const s = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const exists = !Number.isNaN(oracleMs(s)) && oracleDate(oracleMs(s)) === s;
        return isValidCalendarDate(s) === (exists ? 'ok' : 'invalid');
      }),
    );
  });
});

describe('compareDates', () => {
  it('orders dates', () => {
    expect(compareDates('2026-11-21', '2026-11-22')).toBeLessThan(0);
    expect(compareDates('2026-11-22', '2026-11-22')).toBe(0);
    expect(compareDates('2027-01-01', '2026-12-31')).toBeGreaterThan(0);
    expect(['2026-12-01', '2026-02-28', '2025-12-31'].sort(compareDates)).toEqual(['2025-12-31', '2026-02-28', '2026-12-01']);
  });

  it('agrees with time order', () => {
    fc.assert(fc.property(anyDay, anyDay, (a, b) => Math.sign(compareDates(a, b)) === Math.sign(oracleMs(a) - oracleMs(b))));
  });
});

describe('addDays', () => {
  it.each([
    ['2026-11-22', 1, '2026-11-23'],
    ['2026-11-30', 1, '2026-12-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-11-22', 0, '2026-11-22'],
    ['2026-11-22', 7, '2026-11-29'],
    ['2026-11-22', 365, '2027-11-22'],
    ['2026-11-22', -366, '2025-11-21'],
  ])('%s + %p days is %s', (date, n, expected) => {
    expect(addDays(date, n)).toBe(expected);
  });

  it('agrees with the UTC calendar', () => {
    fc.assert(fc.property(anyDay, fc.integer({ min: -40000, max: 40000 }), (date, n) => addDays(date, n) === oracleDate(oracleMs(date) + n * DAY)));
  });

  it('adds up', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (date, a, b) => {
        return addDays(addDays(date, a), b) === addDays(date, a + b);
      }),
    );
  });

  it('refuses a date that does not exist, a fraction of a day, and years beyond 9999', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('22/11/2026', 1)).toThrow(RangeError);
    expect(() => addDays('2026-11-22', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0000-01-01', -1)).toThrow(RangeError);
    expect(addDays('0000-01-01', 0)).toBe('0000-01-01');
  });
});

describe('daysBetween', () => {
  it.each([
    ['2026-11-22', '2026-11-22', 0],
    ['2026-11-22', '2026-11-29', 7],
    ['2026-11-29', '2026-11-22', -7],
    ['2028-02-28', '2028-03-01', 2],
    ['2027-02-28', '2027-03-01', 1],
  ])('%s to %s is %p days', (a, b, expected) => {
    expect(daysBetween(a, b)).toBe(expected);
  });

  it('agrees with the UTC calendar and undoes addDays', () => {
    fc.assert(fc.property(anyDay, anyDay, (a, b) => daysBetween(a, b) === (oracleMs(b) - oracleMs(a)) / DAY));
    fc.assert(fc.property(anyDay, fc.integer({ min: -40000, max: 40000 }), (a, n) => daysBetween(a, addDays(a, n)) === n));
  });

  it('refuses a date that does not exist', () => {
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
  });
});

describe('dayOfWeek', () => {
  it.each([
    ['1970-01-01', 4],
    ['2026-11-22', 0],
    ['2027-02-08', 1],
    ['2027-03-26', 5],
    ['2026-11-21', 6],
    ['0000-01-01', 6],
  ])('%s is weekday %p', (date, expected) => {
    expect(dayOfWeek(date)).toBe(expected);
  });

  it('agrees with the UTC calendar', () => {
    fc.assert(fc.property(anyDay, (date) => dayOfWeek(date) === new Date(oracleMs(date)).getUTCDay()));
  });
});

describe('daysInMonth', () => {
  it('agrees with the UTC calendar', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        return daysInMonth(year, month) === new Date(Date.UTC(year, month, 0)).getUTCDate();
      }),
    );
  });
});
