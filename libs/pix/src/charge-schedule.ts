// When each cycle of a recurrence falls due, and when its charge is created. Pure day arithmetic
// on YYYY-MM-DD strings; cycles are numbered from 1, and cycle 1 falls due on start_date.
import { nextBusinessDay } from './business-days';
import { addDays, daysBetween, daysInMonth, isValidCalendarDate } from './calendar';

// Defined here, not imported: libs/pix depends on no other project library.
export type Periodicity = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUAL' | 'ANNUAL';

export interface ChargeSchedule {
  start_date: string;
  /** The last day a cycle's nominal due date may fall on; null for no end. */
  end_date: string | null;
  periodicity: Periodicity;
}

const MONTHS_PER_CYCLE: Record<Exclude<Periodicity, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 };

/**
 * The due date of a cycle before any business-day adjustment. WEEKLY adds 7 days a cycle; the
 * others add 1, 3, 6 or 12 months to start_date, keeping its day of the month or, when the month
 * is shorter, its last day (start 2027-01-31 monthly: 2027-02-28, 2027-03-31, 2027-04-30).
 */
export function nominalDueDate(startDate: string, periodicity: Periodicity, cycle: number): string {
  assertDate(startDate);
  assertCycle(cycle);
  if (periodicity === 'WEEKLY') return addDays(startDate, 7 * (cycle - 1));
  const [year, month, day] = parts(startDate);
  // Counted from start_date every time, so a clamped 28th never becomes the day of later cycles.
  const monthIndex = year * 12 + (month - 1) + monthsPerCycle(periodicity) * (cycle - 1);
  const dueYear = Math.floor(monthIndex / 12);
  const dueMonth = (monthIndex % 12) + 1;
  if (dueYear > 9999) throw new RangeError(`date outside years 0000-9999 (year ${dueYear})`);
  return `${pad(dueYear, 4)}-${pad(dueMonth, 2)}-${pad(Math.min(day, daysInMonth(dueYear, dueMonth)), 2)}`;
}

/**
 * The date a cycle's charge falls due: null when its nominal date is after end_date (a nominal
 * date on end_date is the last cycle); moved to the next business day when businessDayAdjust.
 */
export function cycleDueDate(schedule: ChargeSchedule, cycle: number, businessDayAdjust: boolean): string | null {
  assertCycle(cycle);
  if (schedule.end_date !== null && cycle > cyclesDueBy(schedule, schedule.end_date, 'on-or-before')) return null;
  return dueDateOf(schedule, cycle, businessDayAdjust);
}

/** The day a cycle's charge is created: leadDays calendar days before its due date. */
export function chargeCreationDate(dueDate: string, leadDays: number): string {
  if (!Number.isSafeInteger(leadDays) || leadDays < 0) throw new RangeError(`not a number of days ahead: ${leadDays}`);
  return addDays(dueDate, -leadDays);
}

/**
 * The first cycle due on or after a date (for a recurrence approved after some cycles have
 * passed), or null when every cycle up to end_date falls due before it.
 */
export function firstCycleDueOnOrAfter(schedule: ChargeSchedule, businessDayAdjust: boolean, date: string): number | null {
  assertDate(date);
  // The first cycle whose nominal date is on or after `date` is due on or after it too (an
  // adjustment only moves a date later), so the answer is this cycle or an earlier one that
  // adjustment carried past `date`. Adjustments are under 7 days and cycles at least 7 apart,
  // so that is at most one step back.
  let cycle = cyclesDueBy(schedule, date, 'before') + 1;
  if (schedule.end_date !== null) {
    const lastCycle = cyclesDueBy(schedule, schedule.end_date, 'on-or-before');
    if (lastCycle === 0) return null;
    cycle = Math.min(cycle, lastCycle);
  }
  while (cycle > 1 && dueDateOf(schedule, cycle - 1, businessDayAdjust) >= date) cycle--;
  return dueDateOf(schedule, cycle, businessDayAdjust) >= date ? cycle : null;
}

// A cycle's due date, end_date aside.
function dueDateOf(schedule: ChargeSchedule, cycle: number, businessDayAdjust: boolean): string {
  const nominal = nominalDueDate(schedule.start_date, schedule.periodicity, cycle);
  return businessDayAdjust ? nextBusinessDay(nominal) : nominal;
}

// How many cycles have a nominal date before (or on or before) `date`, in constant time.
function cyclesDueBy(schedule: ChargeSchedule, date: string, bound: 'before' | 'on-or-before'): number {
  assertDate(schedule.start_date);
  assertDate(date);
  const inclusive = bound === 'on-or-before';
  if (schedule.periodicity === 'WEEKLY') {
    // Cycle n is due start + 7(n - 1) days.
    const days = daysBetween(schedule.start_date, date);
    if (inclusive) return days < 0 ? 0 : Math.floor(days / 7) + 1;
    return days <= 0 ? 0 : Math.ceil(days / 7);
  }
  // Cycle n is due step × (n - 1) months after start, on the start day or the month's last day.
  const step = monthsPerCycle(schedule.periodicity);
  const [startYear, startMonth, startDay] = parts(schedule.start_date);
  const [year, month, day] = parts(date);
  const months = year * 12 + month - (startYear * 12 + startMonth);
  if (months < 0) return 0;
  const inEarlierMonths = Math.ceil(months / step);
  if (months % step !== 0) return inEarlierMonths;
  const dueDay = Math.min(startDay, daysInMonth(year, month));
  const inThisMonth = inclusive ? dueDay <= day : dueDay < day;
  return inEarlierMonths + (inThisMonth ? 1 : 0);
}

function monthsPerCycle(periodicity: Exclude<Periodicity, 'WEEKLY'>): number {
  const months = MONTHS_PER_CYCLE[periodicity];
  if (months === undefined) throw new RangeError(`not a periodicity: ${String(periodicity)}`);
  return months;
}

function assertDate(date: string): void {
  if (isValidCalendarDate(date) !== 'ok') throw new RangeError(`not a calendar date: ${date}`);
}

function assertCycle(cycle: number): void {
  if (!Number.isSafeInteger(cycle) || cycle < 1) throw new RangeError(`not a cycle number (1, 2, ...): ${cycle}`);
}

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
