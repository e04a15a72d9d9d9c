import fc from 'fast-check';
import { bankHolidays, isBusinessDay, nextBusinessDay } from './business-days';
import { addDays, dayOfWeek } from './calendar';

// Run this file with TZ=UTC, TZ=America/Sao_Paulo and TZ=Asia/Tokyo: Jest isolates process.env,
// so the time zone cannot be switched from inside a test.

const anyDay = fc
  .integer({ min: 0, max: 365 * 300 })
  .map((n) => addDays('1900-01-01', n))
  .filter((d) => d <= '2199-12-31');

// Test oracle: Easter Sunday by the anonymous Gregorian computus (Meeus/Jones/Butcher).
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// Test oracle: the days banks close nationally, written from the law rather than the library.
function expectedClosedDays(year: number): string[] {
  const e = easter(year);
  const movable = [addDays(e, -48), addDays(e, -47), addDays(e, -2), addDays(e, 60)]; // Carnival Mon, Tue, Good Friday, Corpus Christi
  const fixed = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '12-25', ...(year >= 2024 ? ['11-20'] : [])].map((md) => `${year}-${md}`);
  return [...new Set([...movable, ...fixed])].sort(); // Good Friday is Tiradentes in 1905, 1916, 2000, 2079, 2152
}

const isWeekday = (d: string) => dayOfWeek(d) !== 0 && dayOfWeek(d) !== 6;

describe('bankHolidays', () => {
  it('2026: national holidays, Carnival Monday and Tuesday, Corpus Christi (and the election Sundays)', () => {
    expect(bankHolidays(2026)).toEqual([
      '2026-01-01', // Ano Novo
      '2026-02-16', // Carnaval (Monday)
      '2026-02-17', // Carnaval (Tuesday)
      '2026-04-03', // Sexta-feira Santa
      '2026-04-21', // Tiradentes
      '2026-05-01', // Dia do Trabalhador
      '2026-06-04', // Corpus Christi
      '2026-09-07', // Independência
      '2026-10-04', // Eleições, 1st round (a Sunday)
      '2026-10-12', // Nossa Senhora Aparecida
      '2026-10-25', // Eleições, 2nd round (a Sunday)
      '2026-11-02', // Finados
      '2026-11-15', // Proclamação da República
      '2026-11-20', // Consciência Negra (national since 2024)
      '2026-12-25', // Natal
    ]);
  });

  it('2027', () => {
    expect(bankHolidays(2027)).toEqual([
      '2027-01-01',
      '2027-02-08',
      '2027-02-09',
      '2027-03-26',
      '2027-04-21',
      '2027-05-01',
      '2027-05-27',
      '2027-09-07',
      '2027-10-12',
      '2027-11-02',
      '2027-11-15',
      '2027-11-20',
      '2027-12-25',
    ]);
  });

  it('on weekdays, agrees with the law computed from Easter, every year 1900-2199', () => {
    for (let year = 1900; year <= 2199; year++) {
      expect(bankHolidays(year).filter(isWeekday)).toEqual(expectedClosedDays(year).filter(isWeekday));
    }
  });

  it('returns a copy', () => {
    bankHolidays(2027).pop();
    expect(bankHolidays(2027)).toContain('2027-12-25');
  });

  it('refuses years the holiday data cannot answer', () => {
    expect(() => bankHolidays(99)).toThrow(RangeError);
    expect(() => bankHolidays(10000)).toThrow(RangeError);
    expect(() => bankHolidays(2027.5)).toThrow(RangeError);
  });
});

describe('isBusinessDay', () => {
  it.each([
    ['2026-01-01', 'Ano Novo'],
    ['2026-02-16', 'Carnival Monday'],
    ['2026-02-17', 'Carnival Tuesday'],
    ['2026-04-03', 'Good Friday'],
    ['2026-04-21', 'Tiradentes'],
    ['2026-06-04', 'Corpus Christi'],
    ['2026-11-20', 'Consciência Negra'],
    ['2026-12-25', 'Christmas'],
    ['2027-01-01', 'Ano Novo'],
    ['2027-02-08', 'Carnival Monday'],
    ['2027-02-09', 'Carnival Tuesday'],
    ['2027-03-26', 'Good Friday'],
    ['2027-04-21', 'Tiradentes'],
    ['2027-05-27', 'Corpus Christi'],
    ['2027-09-07', 'Independência'],
    ['2027-10-12', 'Nossa Senhora Aparecida'],
    ['2027-11-02', 'Finados'],
    ['2027-11-15', 'Proclamação da República'],
    ['2026-11-21', 'a Saturday'],
    ['2026-11-22', 'a Sunday'],
  ])('%s (%s) is not a business day', (date) => {
    expect(isBusinessDay(date)).toBe(false);
  });

  it.each([
    ['2027-02-10', 'Ash Wednesday: banks open at noon, settlement runs'],
    ['2026-02-18', 'Ash Wednesday'],
    ['2027-12-24', 'Christmas Eve (a Friday): banks close early, not all day'],
    ['2027-12-31', "New Year's Eve (a Friday)"],
    ['2023-11-20', 'Consciência Negra before it became national (a Monday)'],
    ['2026-11-23', 'an ordinary Monday'],
    ['2027-03-25', 'Maundy Thursday'],
  ])('%s (%s) is a business day', (date) => {
    expect(isBusinessDay(date)).toBe(true);
  });

  it('is false on every Saturday and Sunday', () => {
    fc.assert(
      fc.property(
        anyDay.filter((date) => !isWeekday(date)),
        (date) => !isBusinessDay(date),
      ),
    );
  });

  it('is false exactly on weekends and bank holidays', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        const holiday = expectedClosedDays(Number(date.slice(0, 4))).includes(date);
        expect(isBusinessDay(date)).toBe(isWeekday(date) && !holiday);
      }),
    );
  });

  it('refuses what is not a calendar date', () => {
    expect(() => isBusinessDay('2027-02-30')).toThrow(RangeError);
    expect(() => isBusinessDay('08/02/2027')).toThrow(RangeError);
  });
});

describe('nextBusinessDay', () => {
  it.each([
    ['2026-11-23', '2026-11-23', 'a business day is its own'],
    ['2027-02-06', '2027-02-10', 'Carnival: Saturday, Sunday, Monday, Tuesday'],
    ['2027-02-08', '2027-02-10', 'Carnival Monday'],
    ['2027-03-26', '2027-03-29', 'Good Friday and the weekend'],
    ['2027-05-27', '2027-05-28', 'Corpus Christi'],
    ['2026-11-20', '2026-11-23', 'Consciência Negra (Friday) and the weekend'],
    ['2026-12-25', '2026-12-28', 'Christmas (Friday) and the weekend'],
    ['2026-12-31', '2026-12-31', "New Year's Eve is a business day"],
    ['2027-01-01', '2027-01-04', 'New Year (Friday) and the weekend'],
    ['2027-04-21', '2027-04-22', 'Tiradentes (Wednesday)'],
    ['2026-04-18', '2026-04-20', 'a weekend before Tiradentes (Tuesday)'],
  ])('%s -> %s (%s)', (date, expected) => {
    expect(nextBusinessDay(date)).toBe(expected);
  });

  it('is the first business day on or after the date, less than 7 days later', () => {
    fc.assert(
      fc.property(anyDay, (date) => {
        const next = nextBusinessDay(date);
        expect(isBusinessDay(next)).toBe(true);
        expect(next >= date).toBe(true);
        expect(next < addDays(date, 7)).toBe(true);
        for (let day = date; day < next; day = addDays(day, 1)) expect(isBusinessDay(day)).toBe(false);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(fc.property(anyDay, (date) => nextBusinessDay(nextBusinessDay(date)) === nextBusinessDay(date)));
  });
});
