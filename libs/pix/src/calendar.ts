// Calendar days as the API writes them, YYYY-MM-DD, with no time zone: plain day arithmetic,
// no Date object, so the host's time zone can never shift a day.

export type CalendarDateCheck = 'ok' | 'format' | 'invalid';

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 'format' when not YYYY-MM-DD, 'invalid' for a day that does not exist (2026-02-30), else 'ok'. */
export function isValidCalendarDate(s: string): CalendarDateCheck {
  // test and slices rather than a match's groups: the charge scheduler asks this many times per charge.
  if (!CALENDAR_DATE.test(s)) return 'format';
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'invalid';
  return 'ok';
}

/** Orders two YYYY-MM-DD dates: negative when a is earlier, 0 when the same day, positive when later. */
export function compareDates(a: string, b: string): number {
  // Fixed-width, most significant field first: text order is date order.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The date n days after (n < 0: before) a YYYY-MM-DD date. */
export function addDays(date: string, n: number): string {
  const dayNumber = dayNumberOf(date);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number of days: ${n}`);
  return fromDayNumber(dayNumber + n);
}

/** Days from a to b (positive when b is later): daysBetween(a, addDays(a, n)) === n. */
export function daysBetween(a: string, b: string): number {
  return dayNumberOf(b) - dayNumberOf(a);
}

/** The weekday of a YYYY-MM-DD date: 0 Sunday, 1 Monday, ... 6 Saturday. */
export function dayOfWeek(date: string): number {
  // 1970-01-01, day number 0, was a Thursday.
  return (((dayNumberOf(date) + 4) % 7) + 7) % 7;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** 28 to 31: the number of days in a month (1-12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function dayNumberOf(date: string): number {
  if (isValidCalendarDate(date) !== 'ok') throw new RangeError(`not a calendar date: ${date}`);
  return toDayNumber(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant, "days_from_civil").
function toDayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

// The inverse of toDayNumber ("civil_from_days").
function fromDayNumber(dayNumber: number): string {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) throw new RangeError(`date outside years 0000-9999 (year ${year})`);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
