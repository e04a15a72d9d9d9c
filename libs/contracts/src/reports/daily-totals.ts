import { Messages, validation } from '@pixauto/errors';
import { addDays, brasiliaStartOfDay, centavosToReais, daysBetween, isValidCalendarDate } from '@pixauto/pix';
import { Validated } from '../validation';

// GET /v2/reports/daily-totals (docs/api/reports.md): the money that moved per Brasília day, each kind summed by the
// service that owns it (one GROUP BY over its read model) and composed by the gateway.

/** The days a report covers when none are asked for: the 30 ending today (the environment's today). */
export const DEFAULT_REPORT_DAYS = 30;
/** At most a quarter in one report: 92 days. */
export const MAX_REPORT_DAYS = 92;
/** The failed Automatic Pix charges a report lists (newest due date first); `count` counts them all. */
export const FAILED_CHARGES_LISTED = 10;

/** The days of a report, Brasília days (YYYY-MM-DD), both included. */
export interface ReportDays {
  start_day: string;
  end_day: string;
}

/** The instants a report's days span: from the start of `start_day` to the start of the day after `end_day` (Brasília). */
export function reportPeriod(days: ReportDays): { from: Date; to: Date } {
  return { from: brasiliaStartOfDay(days.start_day), to: brasiliaStartOfDay(addDays(days.end_day, 1)) };
}

const R = Messages.reports;
const single = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * `start_day` and `end_day`, each optional: `end_day` defaults to `today` (the environment's), `start_day` to 29 days
 * before `end_day`; `end_day` must not be before `start_day`, and the period is at most MAX_REPORT_DAYS days.
 */
export function parseReportDays(query: Record<string, unknown>, today: string): Validated<ReportDays> {
  const start = single(query.start_day);
  const end = single(query.end_day);
  const problems: string[] = [];
  if (query.start_day !== undefined && (start === undefined || isValidCalendarDate(start) !== 'ok')) problems.push(R.dayInvalid('query.start_day'));
  if (query.end_day !== undefined && (end === undefined || isValidCalendarDate(end) !== 'ok')) problems.push(R.dayInvalid('query.end_day'));
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  const end_day = end ?? today;
  const start_day = start ?? addDays(end_day, -(DEFAULT_REPORT_DAYS - 1));
  const length = daysBetween(start_day, end_day) + 1;
  if (length < 1) return { ok: false, refusal: validation(R.periodOrder) };
  if (length > MAX_REPORT_DAYS) return { ok: false, refusal: validation(R.periodTooLong(MAX_REPORT_DAYS)) };
  return { ok: true, value: { start_day, end_day } };
}

/** A service's part of a report: the gateway has settled the days, and sends both. */
export function requiredReportDays(query: Record<string, unknown> | undefined): Validated<ReportDays> {
  const end = single(query?.end_day);
  if (single(query?.start_day) === undefined || end === undefined) return { ok: false, refusal: validation(R.dayInvalid('query.start_day')) };
  return parseReportDays(query ?? {}, end);
}

// ---- what each service answers (centavos, integers as text from PostgreSQL's sums: never a float on the way) ----

/** One Brasília day's figures of one kind, as a service sums them. */
export interface DayCentavos {
  day: string;
  count: number;
  /** The day's sum in centavos, as PostgreSQL wrote it. */
  centavos: string;
}

/** payments-service: Pix charges paid (by `paid_at`) and refunds asked for, failed ones left out (by `created_at`). */
export interface PaymentsDailyTotals {
  pix_charges_paid: DayCentavos[];
  refunds: DayCentavos[];
}

/** payout-query-service: payouts made (by `created_at`), canceled and rejected ones left out, and the rejected count. */
export interface PayoutsDailyTotals {
  payouts: DayCentavos[];
  rejected: number;
}

/** recurrence-service: Automatic Pix charges (cycles) paid (by `paid_at`), and the failed ones due in the period. */
export interface ChargesDailyTotals {
  paid: DayCentavos[];
  failed_count: number;
  failed: Array<{ charge_id: string; recurrence_id: string; centavos: string; due_date: string }>;
}

/** webhook-dispatcher: deliveries created in the period whose every attempt was refused. */
export interface DeliveriesDailyTotals {
  failed: number;
}

// ---- the merchant's answer ----

/** How many, and how much in reais. */
export interface CountAndAmount {
  /** How many. */
  count: number;
  /** Their sum in reais, exact to the centavo (summed in centavos). */
  amount: number;
}

/** The money movements of each kind, in a day or in the whole period. */
export interface DailyTotalsKinds {
  /** Automatic Pix charges (cycles) the payer's bank paid, each on the Brasília day of its `paid_at`; a journey 3 activation counts among the Pix charges. */
  automatic_pix_charges_paid: CountAndAmount;
  /** Pix charges (cash-in, journey 3 activation payments among them) paid, each on the Brasília day of its `paid_at`. */
  pix_charges_paid: CountAndAmount;
  /** Refunds of Pix charges, each on the Brasília day it was asked for (`created_at`), failed ones left out. */
  refunds: CountAndAmount;
  /** Payouts, each on the Brasília day it was made (`created_at`), canceled and rejected ones left out. */
  payouts: CountAndAmount;
}

/** One Brasília day's money movements. */
export interface DailyTotalsDay extends DailyTotalsKinds {
  /** The Brasília day, YYYY-MM-DD. */
  day: string;
}

/** An Automatic Pix charge whose debit the payer's bank refused, due in the period. */
export interface FailedChargeSummary {
  /** The charge's id. */
  charge_id: string;
  /** The recurrence it belongs to. */
  recurrence_id: string;
  /** Its amount in reais. */
  amount: number;
  /** Its due date, YYYY-MM-DD. */
  due_date: string;
}

/**
 * The money that moved in your account per Brasília day, by kind, with the period's totals and what needs attention:
 * exact counts and sums, computed where the data is.
 */
export interface DailyTotalsResponse {
  /** The first day covered, YYYY-MM-DD (Brasília). */
  start_day: string;
  /** The last day covered, YYYY-MM-DD (Brasília), included. */
  end_day: string;
  /** Every day from `start_day` to `end_day`, oldest first; a day with nothing moved has zeros. */
  days: DailyTotalsDay[];
  /** The whole period's figures of each kind. */
  totals: DailyTotalsKinds;
  /** Payouts made in the period that the bank rejected (status 3). */
  rejected_payouts: number;
  /** Webhook deliveries created in the period whose every attempt was refused (status `failed`). */
  failed_webhook_deliveries: number;
  /** Automatic Pix charges due in the period whose debit failed (status FAILED). */
  failed_charges: {
    /** How many, in all. */
    count: number;
    /** The first 10 of them, latest due date first. */
    latest: FailedChargeSummary[];
  };
}

type Kind = keyof DailyTotalsKinds;

/** Each kind's figures, from one function of the kind. */
const eachKind = (of: (kind: Kind) => CountAndAmount): DailyTotalsKinds => ({
  automatic_pix_charges_paid: of('automatic_pix_charges_paid'),
  pix_charges_paid: of('pix_charges_paid'),
  refunds: of('refunds'),
  payouts: of('payouts'),
});

/** Centavos (an integer, as text or bigint) to the API's reais. */
const reais = (centavos: bigint | string): number => centavosToReais(Number(BigInt(centavos)));

/** The merchant's answer, from the four services' parts: every day of the period, amounts turned to reais only at the end. */
export function composeDailyTotals(
  days: ReportDays,
  parts: { payments: PaymentsDailyTotals; payouts: PayoutsDailyTotals; charges: ChargesDailyTotals; deliveries: DeliveriesDailyTotals },
): DailyTotalsResponse {
  const byKind: Record<Kind, DayCentavos[]> = {
    automatic_pix_charges_paid: parts.charges.paid,
    pix_charges_paid: parts.payments.pix_charges_paid,
    refunds: parts.payments.refunds,
    payouts: parts.payouts.payouts,
  };
  const rowOf = (kind: Kind, day: string): DayCentavos | undefined => byKind[kind].find((row) => row.day === day);
  const sumOf = (kind: Kind): CountAndAmount => ({
    count: byKind[kind].reduce((count, row) => count + row.count, 0),
    amount: reais(byKind[kind].reduce((centavos, row) => centavos + BigInt(row.centavos), 0n)),
  });
  const length = daysBetween(days.start_day, days.end_day) + 1;
  const inPeriod = (kind: Kind) => byKind[kind].every((row) => row.day >= days.start_day && row.day <= days.end_day);
  if (!(Object.keys(byKind) as Kind[]).every(inPeriod)) throw new RangeError('a service answered a day outside the period');
  return {
    start_day: days.start_day,
    end_day: days.end_day,
    days: Array.from({ length }, (_, i) => addDays(days.start_day, i)).map((day) => ({
      day,
      ...eachKind((kind) => {
        const row = rowOf(kind, day);
        return row ? { count: row.count, amount: reais(row.centavos) } : { count: 0, amount: 0 };
      }),
    })),
    totals: eachKind(sumOf),
    rejected_payouts: parts.payouts.rejected,
    failed_webhook_deliveries: parts.deliveries.failed,
    failed_charges: {
      count: parts.charges.failed_count,
      latest: parts.charges.failed.map((charge) => ({
        charge_id: charge.charge_id,
        recurrence_id: charge.recurrence_id,
        amount: reais(charge.centavos),
        due_date: charge.due_date,
      })),
    },
  };
}
