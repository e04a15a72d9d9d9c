// What the payer of a due-date Pix charge (BCB cobv) owes on a given day: the original amount less the abatement,
// less a discount up to the due date, plus a fine and interest after it (docs/decisions/due-date-charges.md).
// Exact arithmetic on integers (BigInt): every part is computed exactly, then cut to the centavo (rounded toward
// zero, so no part ever counts a fraction of a centavo the rule does not give), and the final amount is the sum of
// the cut parts.
import { addDays, compareDates, daysBetween } from './calendar';
import { isBusinessDay, nextBusinessDay } from './business-days';
import { Centavos } from './money';

/** BCB multa modalities 1 and 2. */
export type FineModality = 'FIXED_AMOUNT' | 'PERCENTAGE';
/** BCB abatimento modalities 1 and 2. */
export type AbatementModality = 'FIXED_AMOUNT' | 'PERCENTAGE';
/** BCB juros modalities 1 to 8, in that order. */
export type InterestModality =
  | 'AMOUNT_PER_CALENDAR_DAY'
  | 'PERCENT_PER_DAY_CALENDAR_DAYS'
  | 'PERCENT_PER_MONTH_CALENDAR_DAYS'
  | 'PERCENT_PER_YEAR_CALENDAR_DAYS'
  | 'AMOUNT_PER_BUSINESS_DAY'
  | 'PERCENT_PER_DAY_BUSINESS_DAYS'
  | 'PERCENT_PER_MONTH_BUSINESS_DAYS'
  | 'PERCENT_PER_YEAR_BUSINESS_DAYS';
/** BCB desconto modalities 1 and 2: a value per date, the payer paying on or before it. */
export type FixedDateDiscountModality = 'FIXED_AMOUNT_UNTIL_DATE' | 'PERCENTAGE_UNTIL_DATE';
/** BCB desconto modalities 3 to 6: a value per day paid ahead of the due date. */
export type EarlyPaymentDiscountModality =
  'AMOUNT_PER_CALENDAR_DAY_EARLY' | 'AMOUNT_PER_BUSINESS_DAY_EARLY' | 'PERCENT_PER_CALENDAR_DAY_EARLY' | 'PERCENT_PER_BUSINESS_DAY_EARLY';
export type DiscountModality = FixedDateDiscountModality | EarlyPaymentDiscountModality;

export const FINE_MODALITIES: readonly FineModality[] = ['FIXED_AMOUNT', 'PERCENTAGE'];
export const ABATEMENT_MODALITIES: readonly AbatementModality[] = ['FIXED_AMOUNT', 'PERCENTAGE'];
export const INTEREST_MODALITIES: readonly InterestModality[] = [
  'AMOUNT_PER_CALENDAR_DAY',
  'PERCENT_PER_DAY_CALENDAR_DAYS',
  'PERCENT_PER_MONTH_CALENDAR_DAYS',
  'PERCENT_PER_YEAR_CALENDAR_DAYS',
  'AMOUNT_PER_BUSINESS_DAY',
  'PERCENT_PER_DAY_BUSINESS_DAYS',
  'PERCENT_PER_MONTH_BUSINESS_DAYS',
  'PERCENT_PER_YEAR_BUSINESS_DAYS',
];
export const FIXED_DATE_DISCOUNT_MODALITIES: readonly FixedDateDiscountModality[] = ['FIXED_AMOUNT_UNTIL_DATE', 'PERCENTAGE_UNTIL_DATE'];
export const EARLY_PAYMENT_DISCOUNT_MODALITIES: readonly EarlyPaymentDiscountModality[] = [
  'AMOUNT_PER_CALENDAR_DAY_EARLY',
  'AMOUNT_PER_BUSINESS_DAY_EARLY',
  'PERCENT_PER_CALENDAR_DAY_EARLY',
  'PERCENT_PER_BUSINESS_DAY_EARLY',
];
export const DISCOUNT_MODALITIES: readonly DiscountModality[] = [...FIXED_DATE_DISCOUNT_MODALITIES, ...EARLY_PAYMENT_DISCOUNT_MODALITIES];

/**
 * A rule's value in hundredths, as BCB writes it with two decimals: centavos for an amount modality, hundredths of a
 * percent for a percentage one (2.5% is 250).
 */
export interface DueDateRule<M> {
  modality: M;
  value: number;
}

/** Up to three (date, value) pairs: paid on or before the date, that value off. */
export interface FixedDateDiscount {
  date: string;
  value: number;
}

export type DueDateDiscount =
  { modality: FixedDateDiscountModality; fixed_dates: FixedDateDiscount[] } | { modality: EarlyPaymentDiscountModality; value: number };

/** The terms of a due-date charge that set what is owed on a day. */
export interface DueDateTerms {
  amount_centavos: Centavos;
  /** YYYY-MM-DD, payable on it without fine or interest. */
  due_date: string;
  /** Calendar days after the due date the charge may still be paid (BCB validadeAposVencimento). */
  days_valid_after_due: number;
  fine: DueDateRule<FineModality> | null;
  interest: DueDateRule<InterestModality> | null;
  discount: DueDateDiscount | null;
  abatement: DueDateRule<AbatementModality> | null;
}

/** What the payer owes on `day`, and why (centavos): final = original - abatement - discount + fine + interest. */
export interface AmountDue {
  day: string;
  original: Centavos;
  abatement: Centavos;
  discount: Centavos;
  fine: Centavos;
  interest: Centavos;
  final: Centavos;
}

/** A due date that is not a business day moves to the next one; every rule that names the due date follows it (BCB). */
export function effectiveDueDate(terms: Pick<DueDateTerms, 'due_date'>): string {
  return nextBusinessDay(terms.due_date);
}

/**
 * The last day the charge can be paid: the effective due date plus the days of validity, in calendar days, moved to
 * the next business day when it is not one (BCB's examples of validadeAposVencimento).
 */
export function lastPayableDay(terms: Pick<DueDateTerms, 'due_date' | 'days_valid_after_due'>): string {
  return nextBusinessDay(addDays(effectiveDueDate(terms), terms.days_valid_after_due));
}

/** What is owed on `day` (YYYY-MM-DD, Brasília), or undefined when the charge can no longer be paid that day. */
export function amountDueOn(terms: DueDateTerms, day: string): AmountDue | undefined {
  if (compareDates(day, lastPayableDay(terms)) > 0) return undefined;
  const original = BigInt(terms.amount_centavos);
  const due = effectiveDueDate(terms);
  const abatement = terms.abatement ? minBig(ruleAmount(terms.abatement.modality === 'PERCENTAGE', terms.abatement.value, original), original - 1n) : 0n;
  const base = original - abatement;
  const early = compareDates(day, due) <= 0;
  const discount = early && terms.discount ? minBig(discountOn(terms.discount, base, day, due), base - 1n) : 0n;
  const fine = !early && terms.fine ? ruleAmount(terms.fine.modality === 'PERCENTAGE', terms.fine.value, base) : 0n;
  const interest = !early && terms.interest ? interestOn(terms.interest, base, due, day) : 0n;
  return {
    day,
    original: Number(original),
    abatement: Number(abatement),
    discount: Number(discount),
    fine: Number(fine),
    interest: Number(interest),
    final: Number(base - discount + fine + interest),
  };
}

/** Business days d with after < d <= until. */
export function businessDaysBetween(after: string, until: string): number {
  let count = 0;
  for (let d = addDays(after, 1); compareDates(d, until) <= 0; d = addDays(d, 1)) if (isBusinessDay(d)) count++;
  return count;
}

const HUNDREDTHS_OF_PERCENT = 10_000n;
/** A monthly rate's day is a 30th of it and a yearly rate's a 360th (the commercial month and year). */
const DAYS_PER_MONTH = 30n;
const DAYS_PER_YEAR = 360n;

function ruleAmount(percentage: boolean, value: number, base: bigint): bigint {
  return percentage ? (base * BigInt(value)) / HUNDREDTHS_OF_PERCENT : BigInt(value);
}

function discountOn(discount: DueDateDiscount, base: bigint, day: string, due: string): bigint {
  switch (discount.modality) {
    case 'FIXED_AMOUNT_UNTIL_DATE':
    case 'PERCENTAGE_UNTIL_DATE': {
      // The first date (moved to a business day, as the due date is) not before the payment day gives its value.
      const applies = discount.fixed_dates
        .map((d) => ({ date: nextBusinessDay(d.date), value: d.value }))
        .filter((d) => compareDates(day, d.date) <= 0)
        .sort((a, b) => compareDates(a.date, b.date))[0];
      return applies ? ruleAmount(discount.modality === 'PERCENTAGE_UNTIL_DATE', applies.value, base) : 0n;
    }
    case 'AMOUNT_PER_CALENDAR_DAY_EARLY':
      return BigInt(discount.value) * BigInt(daysBetween(day, due));
    case 'AMOUNT_PER_BUSINESS_DAY_EARLY':
      return BigInt(discount.value) * BigInt(businessDaysBetween(day, due));
    case 'PERCENT_PER_CALENDAR_DAY_EARLY':
      return (base * BigInt(discount.value) * BigInt(daysBetween(day, due))) / HUNDREDTHS_OF_PERCENT;
    case 'PERCENT_PER_BUSINESS_DAY_EARLY':
      return (base * BigInt(discount.value) * BigInt(businessDaysBetween(day, due))) / HUNDREDTHS_OF_PERCENT;
    default: {
      const unreachable: never = discount;
      return unreachable;
    }
  }
}

function interestOn(interest: DueDateRule<InterestModality>, base: bigint, due: string, day: string): bigint {
  const value = BigInt(interest.value);
  const calendarDays = () => BigInt(daysBetween(due, day));
  const businessDays = () => BigInt(businessDaysBetween(due, day));
  switch (interest.modality) {
    case 'AMOUNT_PER_CALENDAR_DAY':
      return value * calendarDays();
    case 'AMOUNT_PER_BUSINESS_DAY':
      return value * businessDays();
    case 'PERCENT_PER_DAY_CALENDAR_DAYS':
      return (base * value * calendarDays()) / HUNDREDTHS_OF_PERCENT;
    case 'PERCENT_PER_DAY_BUSINESS_DAYS':
      return (base * value * businessDays()) / HUNDREDTHS_OF_PERCENT;
    case 'PERCENT_PER_MONTH_CALENDAR_DAYS':
      return (base * value * calendarDays()) / (HUNDREDTHS_OF_PERCENT * DAYS_PER_MONTH);
    case 'PERCENT_PER_MONTH_BUSINESS_DAYS':
      return (base * value * businessDays()) / (HUNDREDTHS_OF_PERCENT * DAYS_PER_MONTH);
    case 'PERCENT_PER_YEAR_CALENDAR_DAYS':
      return (base * value * calendarDays()) / (HUNDREDTHS_OF_PERCENT * DAYS_PER_YEAR);
    case 'PERCENT_PER_YEAR_BUSINESS_DAYS':
      return (base * value * businessDays()) / (HUNDREDTHS_OF_PERCENT * DAYS_PER_YEAR);
    default: {
      const unreachable: never = interest.modality;
      return unreachable;
    }
  }
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
