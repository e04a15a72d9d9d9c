import fc from 'fast-check';
import { isBusinessDay, nextBusinessDay } from './business-days';
import { addDays, daysBetween } from './calendar';
import { ChargeSchedule, Periodicity, chargeCreationDate, cycleDueDate, firstCycleDueOnOrAfter, nominalDueDate } from './charge-schedule';

// Test oracle: JavaScript's own UTC calendar (allowed here; library code stays free of Date).
const DAY = 24 * 60 * 60 * 1000;
const oracleMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);
const oracleDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const MONTHS: Record<Periodicity, number> = { WEEKLY: 0, MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 };
const PERIODICITIES = Object.keys(MONTHS) as Periodicity[];

const anyStart = fc.integer({ min: 0, max: 365 * 150 }).map((n) => addDays('1990-01-01', n));
const anyMonthEnd = fc
  .record({ year: fc.integer({ min: 1990, max: 2140 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 28, max: 31 }) })
  .map(({ year, month, day }) => {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
  });
const anyPeriodicity = fc.constantFrom(...PERIODICITIES);
const monthlyKind = fc.constantFrom<Periodicity>('MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL');
const anyCycle = fc.integer({ min: 1, max: 300 });
const anySchedule: fc.Arbitrary<ChargeSchedule> = fc
  .record({ start: fc.oneof(anyStart, anyMonthEnd), periodicity: anyPeriodicity, span: fc.option(fc.integer({ min: -40, max: 365 * 8 }), { nil: null }) })
  .map(({ start, periodicity, span }) => ({ start_date: start, end_date: span === null ? null : addDays(start, span), periodicity }));

const schedule = (start_date: string, periodicity: Periodicity, end_date: string | null = null): ChargeSchedule => ({ start_date, end_date, periodicity });

function bruteForceFirstCycle(s: ChargeSchedule, adjust: boolean, date: string): number | null {
  for (let cycle = 1; ; cycle++) {
    const due = cycleDueDate(s, cycle, adjust);
    if (due === null) return null;
    if (due >= date) return cycle;
  }
}

describe('nominalDueDate', () => {
  it.each<[string, Periodicity, number, string]>([
    ['2027-01-31', 'MONTHLY', 1, '2027-01-31'],
    ['2027-01-31', 'MONTHLY', 2, '2027-02-28'],
    ['2027-01-31', 'MONTHLY', 3, '2027-03-31'],
    ['2027-01-31', 'MONTHLY', 4, '2027-04-30'],
    ['2027-01-31', 'MONTHLY', 13, '2028-01-31'],
    ['2027-01-31', 'MONTHLY', 14, '2028-02-29'],
    ['2028-02-29', 'ANNUAL', 2, '2029-02-28'],
    ['2028-02-29', 'ANNUAL', 5, '2032-02-29'],
    ['2099-02-28', 'ANNUAL', 2, '2100-02-28'],
    ['2026-11-30', 'QUARTERLY', 2, '2027-02-28'],
    ['2026-11-30', 'QUARTERLY', 3, '2027-05-30'],
    ['2026-11-30', 'QUARTERLY', 5, '2027-11-30'],
    ['2026-08-31', 'SEMIANNUAL', 2, '2027-02-28'],
    ['2026-08-31', 'SEMIANNUAL', 3, '2027-08-31'],
    ['2026-11-22', 'WEEKLY', 1, '2026-11-22'],
    ['2026-11-22', 'WEEKLY', 2, '2026-11-29'],
    ['2026-11-22', 'WEEKLY', 6, '2026-12-27'],
    ['2026-12-28', 'WEEKLY', 2, '2027-01-04'],
  ])('%s %s cycle %p is %s', (start, periodicity, cycle, expected) => {
    expect(nominalDueDate(start, periodicity, cycle)).toBe(expected);
  });

  it('refuses a cycle that is not 1, 2, ..., a date that does not exist, an unknown periodicity and years beyond 9999', () => {
    expect(() => nominalDueDate('2027-01-31', 'MONTHLY', 0)).toThrow(RangeError);
    expect(() => nominalDueDate('2027-01-31', 'MONTHLY', 1.5)).toThrow(RangeError);
    expect(() => nominalDueDate('2027-02-31', 'MONTHLY', 1)).toThrow(RangeError);
    expect(() => nominalDueDate('2027-01-31', 'DAILY' as Periodicity, 2)).toThrow(RangeError);
    expect(() => nominalDueDate('9999-12-31', 'MONTHLY', 2)).toThrow(RangeError);
    expect(() => nominalDueDate('9999-12-31', 'WEEKLY', 2)).toThrow(RangeError);
  });

  it('WEEKLY: 7 days a cycle', () => {
    fc.assert(
      fc.property(anyStart, anyCycle, (start, cycle) => nominalDueDate(start, 'WEEKLY', cycle) === oracleDate(oracleMs(start) + 7 * (cycle - 1) * DAY)),
    );
  });

  it("months: the start's day of the month, clamped to the last day of a shorter month", () => {
    fc.assert(
      fc.property(fc.oneof(anyStart, anyMonthEnd), monthlyKind, anyCycle, (start, periodicity, cycle) => {
        const [year, month, day] = start.split('-').map(Number);
        const first = new Date(Date.UTC(year, month - 1 + MONTHS[periodicity] * (cycle - 1), 1));
        const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
        const expected = oracleDate(first.getTime() + (Math.min(day, lastDay) - 1) * DAY);
        expect(nominalDueDate(start, periodicity, cycle)).toBe(expected);
      }),
    );
  });

  it('leap years: from 29 February, annual cycles fall on 29 February in leap years and 28 February otherwise', () => {
    const leapYear = fc.integer({ min: 1990, max: 2200 }).filter((y) => new Date(Date.UTC(y, 1, 29)).getUTCDate() === 29);
    fc.assert(
      fc.property(leapYear, fc.integer({ min: 1, max: 500 }), (year, cycle) => {
        const dueYear = year + cycle - 1;
        const leap = (dueYear % 4 === 0 && dueYear % 100 !== 0) || dueYear % 400 === 0;
        expect(nominalDueDate(`${year}-02-29`, 'ANNUAL', cycle)).toBe(`${dueYear}-02-${leap ? 29 : 28}`);
      }),
    );
  });

  it('strictly increases with the cycle', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyStart, anyMonthEnd),
        anyPeriodicity,
        anyCycle,
        (start, p, cycle) => nominalDueDate(start, p, cycle) < nominalDueDate(start, p, cycle + 1),
      ),
    );
  });
});

describe('cycleDueDate', () => {
  it('moves a due date on a holiday or weekend to the next business day, when asked', () => {
    const christmas = schedule('2026-12-25', 'MONTHLY');
    expect(cycleDueDate(christmas, 1, true)).toBe('2026-12-28');
    expect(cycleDueDate(christmas, 1, false)).toBe('2026-12-25');
    const carnival = schedule('2027-02-01', 'WEEKLY');
    expect(cycleDueDate(carnival, 2, true)).toBe('2027-02-10');
    expect(cycleDueDate(carnival, 2, false)).toBe('2027-02-08');
    expect(cycleDueDate(schedule('2027-01-27', 'ANNUAL'), 1, true)).toBe('2027-01-27');
  });

  it('ends with the cycle whose nominal date is on end_date; adjustment may carry that one past it', () => {
    const s = schedule('2027-01-27', 'MONTHLY', '2027-03-27');
    expect(cycleDueDate(s, 3, false)).toBe('2027-03-27');
    expect(cycleDueDate(s, 3, true)).toBe('2027-03-29'); // Saturday after Good Friday
    expect(cycleDueDate(s, 4, false)).toBeNull();
    expect(cycleDueDate(s, 4, true)).toBeNull();
    expect(cycleDueDate(schedule('2027-01-27', 'MONTHLY', '2027-03-26'), 3, false)).toBeNull();
    expect(cycleDueDate(schedule('2027-01-27', 'MONTHLY', '2027-01-26'), 1, false)).toBeNull();
    expect(cycleDueDate(schedule('2027-01-27', 'WEEKLY', '2030-01-01'), 1_000_000_000, true)).toBeNull();
  });

  it('is null exactly when the nominal date is after end_date', () => {
    fc.assert(
      fc.property(anySchedule, anyCycle, fc.boolean(), (s, cycle, adjust) => {
        const nominal = nominalDueDate(s.start_date, s.periodicity, cycle);
        const due = cycleDueDate(s, cycle, adjust);
        expect(due === null).toBe(s.end_date !== null && nominal > s.end_date);
      }),
    );
  });

  it('adjusted: a business day, on or after the nominal date and less than 7 days after it', () => {
    fc.assert(
      fc.property(anySchedule, anyCycle, (s, cycle) => {
        const due = cycleDueDate(s, cycle, true);
        fc.pre(due !== null);
        const nominal = nominalDueDate(s.start_date, s.periodicity, cycle);
        expect(isBusinessDay(due as string)).toBe(true);
        expect(due).toBe(nextBusinessDay(nominal));
        expect(daysBetween(nominal, due as string)).toBeGreaterThanOrEqual(0);
        expect(daysBetween(nominal, due as string)).toBeLessThan(7);
      }),
    );
  });

  it('not adjusted: the nominal date', () => {
    fc.assert(
      fc.property(anySchedule, anyCycle, (s, cycle) => {
        const due = cycleDueDate(s, cycle, false);
        fc.pre(due !== null);
        expect(due).toBe(nominalDueDate(s.start_date, s.periodicity, cycle));
      }),
    );
  });

  it('strictly increases with the cycle, adjusted or not', () => {
    fc.assert(
      fc.property(anySchedule, anyCycle, fc.boolean(), (s, cycle, adjust) => {
        const due = cycleDueDate(s, cycle, adjust);
        const next = cycleDueDate(s, cycle + 1, adjust);
        fc.pre(due !== null && next !== null);
        expect(due! < next!).toBe(true);
      }),
    );
  });
});

describe('chargeCreationDate', () => {
  it.each([
    ['2027-03-01', 10, '2027-02-19'],
    ['2027-03-01', 2, '2027-02-27'],
    ['2027-01-04', 7, '2026-12-28'],
    ['2027-01-04', 0, '2027-01-04'],
  ])('%s less %p days is %s', (due, lead, expected) => {
    expect(chargeCreationDate(due, lead)).toBe(expected);
  });

  it('is leadDays calendar days before the due date', () => {
    fc.assert(fc.property(anyStart, fc.integer({ min: 0, max: 400 }), (due, lead) => daysBetween(chargeCreationDate(due, lead), due) === lead));
  });

  it('refuses a negative or fractional lead and a due date that does not exist', () => {
    expect(() => chargeCreationDate('2027-03-01', -1)).toThrow(RangeError);
    expect(() => chargeCreationDate('2027-03-01', 1.5)).toThrow(RangeError);
    expect(() => chargeCreationDate('2027-02-30', 1)).toThrow(RangeError);
  });
});

describe('firstCycleDueOnOrAfter', () => {
  it('finds the first cycle still to come', () => {
    const s = schedule('2027-01-01', 'MONTHLY', '2027-06-30');
    expect(firstCycleDueOnOrAfter(s, false, '2026-06-01')).toBe(1);
    expect(firstCycleDueOnOrAfter(s, false, '2027-01-01')).toBe(1);
    expect(firstCycleDueOnOrAfter(s, false, '2027-01-02')).toBe(2);
    expect(firstCycleDueOnOrAfter(s, false, '2027-03-15')).toBe(4);
    expect(firstCycleDueOnOrAfter(s, false, '2027-06-01')).toBe(6);
    expect(firstCycleDueOnOrAfter(s, false, '2027-06-02')).toBeNull();
  });

  it('counts a cycle that adjustment carries onto or past the date', () => {
    const s = schedule('2027-02-01', 'WEEKLY'); // cycle 2, 2027-02-08, is Carnival Monday
    expect(firstCycleDueOnOrAfter(s, false, '2027-02-10')).toBe(3);
    expect(firstCycleDueOnOrAfter(s, true, '2027-02-10')).toBe(2);
    const ending = schedule('2027-01-27', 'MONTHLY', '2027-03-27'); // cycle 3 moves to 2027-03-29
    expect(firstCycleDueOnOrAfter(ending, false, '2027-03-28')).toBeNull();
    expect(firstCycleDueOnOrAfter(ending, true, '2027-03-28')).toBe(3);
    expect(firstCycleDueOnOrAfter(ending, true, '2027-03-30')).toBeNull();
  });

  it('is null when the schedule ends before it starts', () => {
    expect(firstCycleDueOnOrAfter(schedule('2027-01-27', 'MONTHLY', '2027-01-26'), true, '2020-01-01')).toBeNull();
  });

  it('answers far in the future without walking every cycle', () => {
    const s = schedule('2026-01-05', 'WEEKLY');
    const cycle = firstCycleDueOnOrAfter(s, true, '9000-01-01') as number;
    expect(cycleDueDate(s, cycle, true)! >= '9000-01-01').toBe(true);
    expect(cycleDueDate(s, cycle - 1, true)! < '9000-01-01').toBe(true);
    expect(cycle).toBe(Math.ceil(daysBetween('2026-01-05', '9000-01-01') / 7) + 1);
  });

  it('agrees with a scan of every cycle', () => {
    fc.assert(
      fc.property(anySchedule, fc.boolean(), fc.integer({ min: -60, max: 365 * 10 }), (s, adjust, offset) => {
        const date = addDays(s.start_date, offset);
        expect(firstCycleDueOnOrAfter(s, adjust, date)).toBe(bruteForceFirstCycle(s, adjust, date));
      }),
    );
  });

  it('agrees with a scan of every cycle on the days around an adjusted due date', () => {
    // Where adjustment matters: a weekend or holiday due date moved onto or past the date.
    const adjustedCycle = fc
      .record({ s: anySchedule, cycle: fc.integer({ min: 1, max: 60 }) })
      .filter(({ s, cycle }) => !isBusinessDay(nominalDueDate(s.start_date, s.periodicity, cycle)));
    fc.assert(
      fc.property(adjustedCycle, fc.integer({ min: -3, max: 7 }), fc.boolean(), ({ s, cycle }, offset, adjust) => {
        const date = addDays(nominalDueDate(s.start_date, s.periodicity, cycle), offset);
        expect(firstCycleDueOnOrAfter(s, adjust, date)).toBe(bruteForceFirstCycle(s, adjust, date));
      }),
      { numRuns: 300 },
    );
  });
});
