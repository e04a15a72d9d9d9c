// What a recurrence's page tells of the charges to come: pure functions of what the API answered.

type Periodicity = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUAL' | 'ANNUAL';
const MONTHS: Record<Exclude<Periodicity, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 };

/** The `cycle`th due date of a schedule (0: its start), a month's day kept or, past the month's end, its last day. */
export function dueDateOf(start: string, periodicity: Periodicity, cycle: number): string {
  const [year, month, day] = start.split('-').map(Number);
  if (periodicity === 'WEEKLY') return new Date(Date.UTC(year, month - 1, day + 7 * cycle)).toISOString().slice(0, 10);
  const months = month - 1 + MONTHS[periodicity] * cycle;
  const lastDay = new Date(Date.UTC(year, months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, months, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

export interface NextCharge {
  due_date: string;
  amount: number;
  /** Already created (SCHEDULED); otherwise the schedule's next due date, its charge not created yet. */
  scheduled: boolean;
}

/**
 * An approved recurrence's next charge: its earliest scheduled one, or else the schedule's first due date after its
 * charges so far; none past the schedule's last date.
 */
export function nextCharge(
  recurrence: { amount: number; schedule: { start_date: string; periodicity: Periodicity; end_date?: string | null } },
  charges: ReadonlyArray<{ status: string; due_date: string; amount: number }>,
): NextCharge | undefined {
  const [scheduled] = charges.filter((charge) => charge.status === 'SCHEDULED').sort((a, b) => a.due_date.localeCompare(b.due_date));
  if (scheduled) return { due_date: scheduled.due_date, amount: scheduled.amount, scheduled: true };
  const last = charges.reduce((latest, charge) => (charge.due_date > latest ? charge.due_date : latest), '');
  const { start_date: start, periodicity, end_date: end } = recurrence.schedule;
  let cycle = 0;
  while (dueDateOf(start, periodicity, cycle) <= last) cycle++;
  const due = dueDateOf(start, periodicity, cycle);
  return end && due > end ? undefined : { due_date: due, amount: recurrence.amount, scheduled: false };
}
