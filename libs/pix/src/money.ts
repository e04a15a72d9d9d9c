// Money is integer centavos inside the system; the API shows reais with 2 decimals.

/** An integer number of centavos (1 real = 100 centavos). */
export type Centavos = number;

/**
 * The largest amount accepted from the API: 70,368,744,177,663.99 reais. From 2^46 reais up a JSON
 * number is coarser than a centavo (two amounts parse to one double), so it cannot be read exactly.
 */
export const MAX_CENTAVOS: Centavos = 2 ** 46 * 100 - 1;

/** The largest amount the settlement system takes (BCB API Pix: up to 10 integer digits of reais); limits too. */
export const MAX_PIX_AMOUNT = 9_999_999_999.99;

// The shortest decimal that reads back as the same double (what String() and JSON.stringify print).
const SHORTEST_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

interface DecimalParts {
  negative: boolean;
  digits: string; // all significant digits, integer part then fraction
  decimalPlaces: number; // how many of those digits sit after the decimal point (negative: zeros to append)
}

/**
 * Reais as a JSON number → centavos; undefined for anything that is not a finite number with at
 * most 2 decimal places and at most MAX_CENTAVOS either way. Decided on the number's decimal text, never on
 * value * 100, because binary doubles do not hold 0.29 or 1.005 exactly.
 */
export function reaisToCentavos(value: unknown): Centavos | undefined {
  if (typeof value !== 'number') return undefined;
  const parts = decimalParts(value);
  if (!parts || parts.decimalPlaces > 2) return undefined;
  const magnitude = Number(parts.digits + '0'.repeat(2 - parts.decimalPlaces));
  if (!(magnitude <= MAX_CENTAVOS)) return undefined;
  return parts.negative && magnitude !== 0 ? -magnitude : magnitude;
}

/** Centavos → reais for the API (a JSON number: 1050 → 10.5, shown by JSON as 10.5). */
export function centavosToReais(c: Centavos): number {
  // A fraction of a centavo, or more than a JSON number can show exactly, is a bug upstream:
  // fail loudly rather than show a wrong amount.
  if (!Number.isInteger(c) || Math.abs(c) > MAX_CENTAVOS) throw new RangeError(`not an amount the API can show: ${c} centavos`);
  return c / 100;
}

/** Whether the number, as written in JSON, has at most 2 decimal places (10.55 yes, 10.555 no). */
export function hasAtMostTwoDecimals(value: number): boolean {
  const parts = decimalParts(value);
  return parts !== undefined && parts.decimalPlaces <= 2;
}

function decimalParts(value: number): DecimalParts | undefined {
  if (!Number.isFinite(value)) return undefined;
  const match = SHORTEST_DECIMAL.exec(String(value));
  if (!match) return undefined;
  const [, sign, integer, fraction = '', exponent = '0'] = match;
  return {
    negative: sign === '-',
    digits: integer + fraction,
    decimalPlaces: fraction.length - Number(exponent),
  };
}
