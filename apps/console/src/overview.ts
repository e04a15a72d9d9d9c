// The overview's figures: the merchant API's daily totals (GET /v2/reports/daily-totals, summed where the data is),
// shaped for the page's charts.
import type { SandboxComponents } from '@pixauto/api-client';

export type DailyTotals = SandboxComponents['schemas']['DailyTotalsResponse'];

/** The four kinds of money movement the overview charts. */
export type Kind = 'automatic_pix_charges_paid' | 'pix_charges_paid' | 'refunds' | 'payouts';
export const KINDS: readonly Kind[] = ['automatic_pix_charges_paid', 'pix_charges_paid', 'refunds', 'payouts'];

export interface DayVolume {
  day: string;
  count: number;
  /** In reais, as the API gives it (exact to the centavo). */
  amount: number;
}

/** One kind's figures, day by day, oldest first. */
export const volumeOf = (totals: DailyTotals, kind: Kind): DayVolume[] => totals.days.map((day) => ({ day: day.day, ...day[kind] }));

/** Whether nothing at all was paid, refunded or paid out in the period. */
export const nothingMoved = (totals: DailyTotals): boolean => KINDS.every((kind) => totals.totals[kind].count === 0);

/** A round top for a chart's scale, at least the largest value (1, 2 or 5 times a power of ten). */
export function scaleTop(largest: number): number {
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest) as number;
}
