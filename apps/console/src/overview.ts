// The overview's figures, computed in the page from the merchant API's lists: pure functions of what the API answered.

/** Brasília has had no daylight saving time since 2019: its days start at 03:00 UTC. */
const BRASILIA_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** The Brasília day (YYYY-MM-DD) of an instant, as the merchant counts days. */
export const brasiliaDay = (iso: string): string => new Date(Date.parse(iso) - BRASILIA_OFFSET_MS).toISOString().slice(0, 10);

/** The `count` days up to and including `today` (YYYY-MM-DD), the oldest first. */
export function daysUpTo(today: string, count: number): string[] {
  const last = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(last - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** The instant a Brasília day starts, ISO 8601 in UTC. */
export const startOfBrasiliaDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + BRASILIA_OFFSET_MS).toISOString();

export interface DayVolume {
  day: string;
  count: number;
  /** In reais, rounded to cents. */
  amount: number;
}

/** How many, and how much, on each of the days: each item counts on the Brasília day of its `at`; items on other days are left out. */
export function dailyVolume(items: ReadonlyArray<{ at: string; amount: number }>, days: readonly string[]): DayVolume[] {
  const byDay = new Map(days.map((day) => [day, { day, count: 0, cents: 0 }]));
  for (const item of items) {
    const bucket = byDay.get(brasiliaDay(item.at));
    if (!bucket) continue;
    bucket.count += 1;
    bucket.cents += Math.round(item.amount * 100);
  }
  return [...byDay.values()].map(({ day, count, cents }) => ({ day, count, amount: cents / 100 }));
}

/** The whole period's figures: how many and how much in all. */
export const totalOf = (volume: readonly DayVolume[]): { count: number; amount: number } => {
  const cents = volume.reduce((sum, day) => sum + Math.round(day.amount * 100), 0);
  return { count: volume.reduce((sum, day) => sum + day.count, 0), amount: cents / 100 };
};

/** Payout statuses (the API's codes): 2 canceled and 3 rejected moved no money. */
const PAYOUT_REJECTED = 3;
const PAYOUT_CANCELED = 2;

/** Payouts that went or are going out, by the day they were made. */
export const payoutsSent = (payouts: ReadonlyArray<{ status: number; amount: number; created_at: string }>) =>
  payouts
    .filter((payout) => payout.status !== PAYOUT_REJECTED && payout.status !== PAYOUT_CANCELED)
    .map((payout) => ({ at: payout.created_at, amount: payout.amount }));

/** Charges paid (Automatic Pix charges, and Pix cash-in charges), by the day they were paid. */
export const chargesPaid = (charges: ReadonlyArray<{ status: string; amount: number; paid_at: string | null }>) =>
  charges.flatMap((charge) => (charge.status === 'PAID' && charge.paid_at ? [{ at: charge.paid_at, amount: charge.amount }] : []));

/** Refunds of Pix charges that went or are going back to the payer (failed ones moved no money), by the day they were asked for. */
export const refundsMade = (refunds: ReadonlyArray<{ status: string; amount: number; created_at: string }>) =>
  refunds.filter((refund) => refund.status !== 'FAILED').map((refund) => ({ at: refund.created_at, amount: refund.amount }));

/** A Pix charge is payable at most a day (86,400 s) after its creation: those paid since `from` were created since a day before. */
export const cashInCreatedSince = (from: string): string => new Date(Date.parse(from) - DAY_MS).toISOString();

/** Charges whose last debit attempt was refused, due on one of the days. */
export const chargesFailed = <T extends { status: string; due_date: string }>(charges: readonly T[], days: readonly string[]): T[] =>
  charges.filter((charge) => charge.status === 'FAILED' && days.includes(charge.due_date));

/** A round top for a chart's scale, at least the largest value (1, 2 or 5 times a power of ten). */
export function scaleTop(largest: number): number {
  if (largest <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(largest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= largest) as number;
}
