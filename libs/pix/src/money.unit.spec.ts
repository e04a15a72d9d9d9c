import fc from 'fast-check';
import { centavosToReais, hasAtMostTwoDecimals, MAX_CENTAVOS, reaisToCentavos } from './money';

const EXACT_CENTAVOS_LIMIT = MAX_CENTAVOS + 1;

describe('reaisToCentavos', () => {
  it.each([
    [10, 1000],
    [10.5, 1050],
    [10.55, 1055],
    [0.29, 29],
    [0.57, 57],
    [1.15, 115],
    [4.35, 435],
    [1.01, 101],
    [0.01, 1],
    [0, 0],
    [-0, 0],
    [-10.55, -1055],
    [1e6, 100_000_000],
    [70368744177663.99, MAX_CENTAVOS],
    [-70368744177663.99, -MAX_CENTAVOS],
  ])('%p reais is %p centavos', (reais, centavos) => {
    expect(reaisToCentavos(reais)).toBe(centavos);
  });

  it('reads the amount the JSON text wrote, not the double times 100', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(reaisToCentavos(JSON.parse('{"amount": 0.29}').amount)).toBe(29);
    expect(reaisToCentavos(JSON.parse('{"amount": 10.50}').amount)).toBe(1050);
    expect(reaisToCentavos(JSON.parse('{"amount": 1e2}').amount)).toBe(10000);
    expect(reaisToCentavos(JSON.parse('{"amount": 1.5E1}').amount)).toBe(1500);
  });

  it.each([
    ['3 decimals', 10.555],
    ['1.005 (3 decimals, whatever its double rounds to)', 1.005],
    ['a tiny fraction', 0.001],
    ['exponent form below a centavo', 1e-7],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['one centavo above MAX_CENTAVOS', 70368744177664],
    ['one centavo below -MAX_CENTAVOS', -70368744177664],
    ['more centavos than MAX_SAFE_INTEGER', 90071992547409.92],
    ['1e21', 1e21],
    ['Number.MAX_VALUE', Number.MAX_VALUE],
    ['a string', '10.55'],
    ['a numeric string', '10'],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an object', { amount: 10 }],
    ['a bigint', BigInt(10)],
  ])('refuses %s', (_why, value) => {
    expect(reaisToCentavos(value)).toBeUndefined();
  });

  it('refuses amounts where a JSON number is coarser than a centavo', () => {
    // 90071992547409.91 and 90071992547409.9 are one double: no reading of it can be trusted.
    expect(90071992547409.91).toBe(90071992547409.9);
    expect(MAX_CENTAVOS).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(reaisToCentavos(90071992547409.91)).toBeUndefined();
  });

  it('for every whole number n of centavos, n / 100 reais is n centavos', () => {
    fc.assert(
      fc.property(fc.integer({ min: -EXACT_CENTAVOS_LIMIT + 1, max: EXACT_CENTAVOS_LIMIT - 1 }), (n) => reaisToCentavos(n / 100) === (n === 0 ? 0 : n)),
    );
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => reaisToCentavos(n / 100) === n));
  });

  it('the same holds for the JSON text of every amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(EXACT_CENTAVOS_LIMIT - 1) }), (n) => {
        const text = `${n / 100n}.${String(n % 100n).padStart(2, '0')}`;
        return reaisToCentavos(JSON.parse(text)) === Number(n);
      }),
    );
  });

  it('refuses every amount with a third decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), fc.integer({ min: 1, max: 9 }), (n, thousandth) => {
        const text = `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}${thousandth}`;
        return reaisToCentavos(JSON.parse(text)) === undefined;
      }),
    );
  });

  it('round-trips through centavosToReais', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -EXACT_CENTAVOS_LIMIT + 1, max: EXACT_CENTAVOS_LIMIT - 1 }),
        (n) => reaisToCentavos(centavosToReais(n)) === (n === 0 ? 0 : n),
      ),
    );
  });
});

describe('centavosToReais', () => {
  it.each([
    [1000, 10],
    [1050, 10.5],
    [1055, 10.55],
    [29, 0.29],
    [1, 0.01],
    [0, 0],
    [-1055, -10.55],
    [MAX_CENTAVOS, 70368744177663.99],
  ])('%p centavos is %p reais', (centavos, reais) => {
    expect(centavosToReais(centavos)).toBe(reais);
  });

  it('shows as a JSON number with at most 2 decimals', () => {
    expect(JSON.stringify({ amount: centavosToReais(29) })).toBe('{"amount":0.29}');
    expect(JSON.stringify({ amount: centavosToReais(115) })).toBe('{"amount":1.15}');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: EXACT_CENTAVOS_LIMIT - 1 }), (n) => {
        const [, fraction = ''] = JSON.stringify(centavosToReais(n)).split('.');
        return fraction.length <= 2;
      }),
    );
  });

  it.each([10.5, NaN, Infinity, MAX_CENTAVOS + 1, -MAX_CENTAVOS - 1, Number.MAX_SAFE_INTEGER])('throws on %p, not a whole amount the API can show', (c) => {
    expect(() => centavosToReais(c)).toThrow(RangeError);
  });
});

describe('hasAtMostTwoDecimals', () => {
  it.each([10, 10.5, 10.55, 0.29, 0, -3.1, 1e21, 1e300])('accepts %p', (value) => {
    expect(hasAtMostTwoDecimals(value)).toBe(true);
  });

  it.each([10.555, 1.005, 0.001, 1e-7, 1.23e-5, NaN, Infinity, -Infinity])('refuses %p', (value) => {
    expect(hasAtMostTwoDecimals(value)).toBe(false);
  });
});
