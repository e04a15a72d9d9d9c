// A recurrence's cycles (RecBase.calendario): cycle k starts k periods after calendario.dataInicial, a month after
// the 31st being the last day of a shorter month (31 Jan → 28/29 Feb → 31 Mar). A date's cycle is the number of
// whole periods between dataInicial and it, rounded down; so a due date moved a few days forward to a business day
// (ajusteDiaUtil) stays in its cycle. Calendar days only (YYYY-MM-DD), never an instant.
import type { CalendarioRec, Periodicidade } from '@pixauto/bank';

const MS_PER_DAY = 86_400_000;

const partsOf = (date: string): [number, number, number] => {
  const [year, month, day] = date.split('-').map(Number);
  return [year, month, day];
};

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const daysInMonth = (year: number, month: number): number => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** Days from a to b (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  const [ya, ma, da] = partsOf(a);
  const [yb, mb, db] = partsOf(b);
  return Math.round((Date.UTC(yb, mb - 1, db) - Date.UTC(ya, ma - 1, da)) / MS_PER_DAY);
}

/**
 * Whole months from `start` to `date` (negative when earlier): the largest m such that start + m months, clamped to
 * the end of a shorter month, is not after `date`.
 */
export function monthsBetween(start: string, date: string): number {
  const [ys, ms, ds] = partsOf(start);
  const [yd, md, dd] = partsOf(date);
  const months = (yd - ys) * 12 + (md - ms);
  // start's day in date's month: the 31st is the 28th, 29th or 30th of a shorter month.
  const anniversary = Math.min(ds, daysInMonth(yd, md));
  return dd < anniversary ? months - 1 : months;
}

const MONTHS_PER_CYCLE: Record<Exclude<Periodicidade, 'SEMANAL'>, number> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

/** The recurrence's cycle that `date` falls in: 0 from dataInicial, 1 one period later, -1 before dataInicial. */
export function cycleIndex(calendario: Pick<CalendarioRec, 'dataInicial' | 'periodicidade'>, date: string): number {
  const { dataInicial, periodicidade } = calendario;
  switch (periodicidade) {
    case 'SEMANAL':
      return Math.floor(daysBetween(dataInicial, date) / 7);
    case 'MENSAL':
    case 'TRIMESTRAL':
    case 'SEMESTRAL':
    case 'ANUAL':
      return Math.floor(monthsBetween(dataInicial, date) / MONTHS_PER_CYCLE[periodicidade]);
    default: {
      const unknown: never = periodicidade;
      throw new RangeError(`not a known periodicidade: ${String(unknown)}`);
    }
  }
}
