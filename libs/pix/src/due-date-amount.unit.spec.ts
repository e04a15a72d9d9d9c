import fc from 'fast-check';
import { bankHolidays } from './business-days';
import {
  ABATEMENT_MODALITIES,
  amountDueOn,
  DueDateDiscount,
  DueDateTerms,
  EARLY_PAYMENT_DISCOUNT_MODALITIES,
  FINE_MODALITIES,
  FIXED_DATE_DISCOUNT_MODALITIES,
  INTEREST_MODALITIES,
  lastPayableDay,
} from './due-date-amount';

// The amount due of a due-date charge against a second calculation written here another way: days walked one by one
// on UTC timestamps, holidays read from the calendar's list, interest accrued day by day as exact fractions, every
// part cut to the centavo at the end (docs/decisions/due-date-charges.md).

const DAY_MS = 86_400_000;
const toMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const next = (date: string, n = 1) => fromMs(toMs(date) + n * DAY_MS);

function isOpen(date: string): boolean {
  const weekday = new Date(toMs(date)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !bankHolidays(Number(date.slice(0, 4))).includes(date);
}
function rollToOpen(date: string): string {
  let d = date;
  while (!isOpen(d)) d = next(d);
  return d;
}
/** Days strictly after `from` up to `to` included, open ones only when asked. */
function daysAfter(from: string, to: string, openOnly: boolean): string[] {
  const days: string[] = [];
  for (let d = next(from); d <= to; d = next(d)) if (!openOnly || isOpen(d)) days.push(d);
  return days;
}

/** An exact fraction n/d with d > 0, both BigInt. */
type Fraction = [bigint, bigint];
const add = ([a, b]: Fraction, [c, d]: Fraction): Fraction => [a * d + c * b, b * d];
const floor = ([n, d]: Fraction): number => Number((n - (((n % d) + d) % d)) / d);
const ZERO: Fraction = [0n, 1n];
/** Hundredths of a percent of a base, exactly. */
const percentOf = (base: number, hundredths: number): Fraction => [BigInt(base) * BigInt(hundredths), 10_000n];

function expectedOn(terms: DueDateTerms, day: string) {
  const due = rollToOpen(terms.due_date);
  let last = due;
  for (let i = 0; i < terms.days_valid_after_due; i++) last = next(last);
  last = rollToOpen(last);
  if (day > last) return undefined;

  const original = terms.amount_centavos;
  let abatement = 0;
  if (terms.abatement) abatement = terms.abatement.modality === 'FIXED_AMOUNT' ? terms.abatement.value : floor(percentOf(original, terms.abatement.value));
  abatement = Math.min(abatement, original - 1);
  const base = original - abatement;

  let discount = 0;
  let fine = 0;
  let interest = 0;
  if (day <= due && terms.discount) {
    const d = terms.discount;
    if ('fixed_dates' in d) {
      const candidates = d.fixed_dates.filter((f) => day <= rollToOpen(f.date)).sort((a, b) => (rollToOpen(a.date) < rollToOpen(b.date) ? -1 : 1));
      if (candidates.length > 0) discount = d.modality === 'FIXED_AMOUNT_UNTIL_DATE' ? candidates[0].value : floor(percentOf(base, candidates[0].value));
    } else {
      const ahead = daysAfter(day, due, d.modality.includes('BUSINESS')).length;
      discount = d.modality.startsWith('AMOUNT') ? d.value * ahead : floor([BigInt(base) * BigInt(d.value) * BigInt(ahead), 10_000n]);
    }
    discount = Math.min(discount, base - 1);
  }
  if (day > due) {
    if (terms.fine) fine = terms.fine.modality === 'FIXED_AMOUNT' ? terms.fine.value : floor(percentOf(base, terms.fine.value));
    if (terms.interest) {
      const m = terms.interest.modality;
      // One day's interest as a fraction of a centavo, summed over the days it runs.
      const perDay: Fraction = m.startsWith('AMOUNT')
        ? [BigInt(terms.interest.value), 1n]
        : [BigInt(base) * BigInt(terms.interest.value), 10_000n * (m.includes('MONTH') ? 30n : m.includes('YEAR') ? 360n : 1n)];
      let accrued = ZERO;
      for (const _ of daysAfter(due, day, m.includes('BUSINESS'))) accrued = add(accrued, perDay);
      interest = floor(accrued);
    }
  }
  return { day, original, abatement, discount, fine, interest, final: base - discount + fine + interest };
}

const dates = fc.integer({ min: toMs('2026-01-01') / DAY_MS, max: toMs('2028-12-31') / DAY_MS }).map((n) => fromMs(n * DAY_MS));
const percent = fc.integer({ min: 1, max: 9_999 });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 3 });

const terms: fc.Arbitrary<{ terms: DueDateTerms; issued: string }> = fc
  .record({
    amount: fc.integer({ min: 1, max: 99_999_999_99 }),
    due: dates,
    daysBefore: fc.integer({ min: 0, max: 40 }),
    validity: fc.integer({ min: 0, max: 45 }),
    fine: optional(fc.record({ modality: fc.constantFrom(...FINE_MODALITIES), value: fc.integer({ min: 1, max: 1_000_000 }) })),
    interest: optional(fc.record({ modality: fc.constantFrom(...INTEREST_MODALITIES), value: fc.integer({ min: 1, max: 100_000 }) })),
    abatement: optional(fc.record({ modality: fc.constantFrom(...ABATEMENT_MODALITIES), value: fc.integer({ min: 1, max: 9_999 }) })),
    discountKind: fc.constantFrom('none', ...FIXED_DATE_DISCOUNT_MODALITIES, ...EARLY_PAYMENT_DISCOUNT_MODALITIES),
    discountValue: fc.integer({ min: 1, max: 50_000 }),
    fixedDates: fc.uniqueArray(fc.record({ before: fc.integer({ min: 0, max: 30 }), value: percent }), {
      minLength: 1,
      maxLength: 3,
      selector: (d) => d.before,
    }),
  })
  .map((g) => {
    const kind = g.discountKind;
    const percentage = (m: string) => m.startsWith('PERCENT');
    let discount: DueDateDiscount | null = null;
    if (kind === 'FIXED_AMOUNT_UNTIL_DATE' || kind === 'PERCENTAGE_UNTIL_DATE')
      discount = { modality: kind, fixed_dates: g.fixedDates.map((f) => ({ date: next(g.due, -f.before), value: f.value })) };
    else if (kind !== 'none') discount = { modality: kind, value: g.discountValue };
    const rule = <M extends string>(r: { modality: M; value: number } | null) =>
      r && { modality: r.modality, value: percentage(r.modality) ? Math.min(r.value, 9_999) : Math.min(r.value, g.amount) };
    return {
      issued: next(g.due, -g.daysBefore),
      terms: {
        amount_centavos: g.amount,
        due_date: g.due,
        days_valid_after_due: g.validity,
        fine: g.fine,
        interest: g.interest,
        discount,
        abatement: rule(g.abatement),
      },
    };
  });

describe('the amount due of a due-date charge', () => {
  it('matches the independent calculation on every day from issue to past its validity, in every modality', () => {
    fc.assert(
      fc.property(terms, ({ terms, issued }) => {
        const end = next(lastPayableDay(terms), 3);
        for (let day = issued; day <= end; day = next(day)) expect(amountDueOn(terms, day)).toEqual(expectedOn(terms, day));
      }),
      { numRuns: 250 },
    );
  });

  it('never goes below a centavo, and moves the right way: down with discounts and abatement, up with fine and interest', () => {
    fc.assert(
      fc.property(terms, ({ terms, issued }) => {
        for (let day = issued; ; day = next(day)) {
          const due = amountDueOn(terms, day);
          if (!due) break;
          expect(due.final).toBeGreaterThanOrEqual(1);
          expect(due.final).toBe(due.original - due.abatement - due.discount + due.fine + due.interest);
          expect(due.discount === 0 || (due.fine === 0 && due.interest === 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  // BCB's examples of validadeAposVencimento (API Pix 2.9.0, CobDataDeVencimento): the last day each accepts.
  it.each([
    ['2020-10-20', 4, '2020-10-26'],
    ['2020-12-25', 0, '2020-12-28'],
    ['2020-12-25', 1, '2020-12-29'],
    ['2020-12-25', 3, '2020-12-31'],
    ['2020-12-25', 4, '2021-01-04'],
    ['2021-08-27', 5, '2021-09-01'],
    ['2021-08-28', 5, '2021-09-06'],
  ])('due %s, valid %i days after it: payable up to %s, refused the day after', (due_date, days, last) => {
    const t: DueDateTerms = { amount_centavos: 10000, due_date, days_valid_after_due: days, fine: null, interest: null, discount: null, abatement: null };
    expect(lastPayableDay(t)).toBe(last);
    expect(amountDueOn(t, last)?.final).toBe(10000);
    expect(amountDueOn(t, next(last))).toBeUndefined();
  });

  it('charges a boleto-style 2% fine and 1% a month: 100.00 five days late is 102.16 (the interest 0.1666... cut to 0.16)', () => {
    const t: DueDateTerms = {
      amount_centavos: 10000,
      due_date: '2026-03-10',
      days_valid_after_due: 30,
      fine: { modality: 'PERCENTAGE', value: 200 },
      interest: { modality: 'PERCENT_PER_MONTH_CALENDAR_DAYS', value: 100 },
      discount: null,
      abatement: null,
    };
    expect(amountDueOn(t, '2026-03-10')).toEqual({ day: '2026-03-10', original: 10000, abatement: 0, discount: 0, fine: 0, interest: 0, final: 10000 });
    expect(amountDueOn(t, '2026-03-15')).toEqual({ day: '2026-03-15', original: 10000, abatement: 0, discount: 0, fine: 200, interest: 16, final: 10216 });
  });

  it('gives the discount of the first date not yet past, on what is left after the abatement', () => {
    const t: DueDateTerms = {
      amount_centavos: 20000,
      due_date: '2026-03-20',
      days_valid_after_due: 0,
      fine: null,
      interest: null,
      discount: {
        modality: 'PERCENTAGE_UNTIL_DATE',
        fixed_dates: [
          { date: '2026-03-10', value: 1000 },
          { date: '2026-03-05', value: 1500 },
        ],
      },
      abatement: { modality: 'FIXED_AMOUNT', value: 2000 },
    };
    expect(amountDueOn(t, '2026-03-05')?.final).toBe(18000 - 2700);
    expect(amountDueOn(t, '2026-03-06')?.final).toBe(18000 - 1800);
    expect(amountDueOn(t, '2026-03-11')?.final).toBe(18000);
  });
});
