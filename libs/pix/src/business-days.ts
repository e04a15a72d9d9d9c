// Brazilian bank business days, for the settlement of Pix Automático cycle charges.
// Days are YYYY-MM-DD strings; the holiday data comes from date-holidays (country BR, national
// only), read as the date text it prints in Brasília, so the host time zone never shifts a day.
import Holidays from 'date-holidays';
import { addDays, dayOfWeek, isValidCalendarDate } from './calendar';

// date-holidays types for Brazil: 'public' = national holidays (Good Friday included);
// 'bank' = Carnival Monday and Tuesday and Corpus Christi, when banks close.
// Left out: 'optional' (Carnival Saturday, Ash Wednesday — banks open at noon — and the
// afternoons of 24 and 31 December: all business days for settlement) and 'observance'
// (Easter, Mother's Day...). State and municipal holidays are not asked for.
const BANK_CLOSED_TYPES: ReadonlySet<string> = new Set(['public', 'bank']);

const brazil = new Holidays('BR', { timezone: 'America/Sao_Paulo' });
const closedDaysByYear = new Map<number, ReadonlySet<string>>();

/** False on Saturdays, Sundays and Brazil's national and bank holidays (see BANK_CLOSED_TYPES). */
export function isBusinessDay(date: string): boolean {
  if (isValidCalendarDate(date) !== 'ok') throw new RangeError(`not a calendar date: ${date}`);
  const holidays = closedDays(Number(date.slice(0, 4)));
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !holidays.has(date);
}

/** The date itself when it is a business day, else the first business day after it. */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** The national and bank holidays of a year (those on a weekend too), in date order. */
export function bankHolidays(year: number): string[] {
  return [...closedDays(year)].sort();
}

function closedDays(year: number): ReadonlySet<string> {
  let days = closedDaysByYear.get(year);
  if (days === undefined) {
    // date-holidays reads a year below 100 as 19xx.
    if (!Number.isInteger(year) || year < 100 || year > 9999) throw new RangeError(`no holiday calendar for year ${year}`);
    const prefix = `${String(year).padStart(4, '0')}-`;
    days = new Set(
      brazil
        .getHolidays(year)
        .filter((holiday) => BANK_CLOSED_TYPES.has(holiday.type))
        // holiday.date is "YYYY-MM-DD hh:mm:ss", local to Brasília.
        .map((holiday) => holiday.date.slice(0, 10))
        .filter((day) => day.startsWith(prefix)),
    );
    closedDaysByYear.set(year, days);
  }
  return days;
}
