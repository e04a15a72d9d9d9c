import fc from 'fast-check';
import { documentType, isValidCnpj, isValidCpf, isValidCpfOrCnpj } from './documents';

// An independent oracle for the check digits (the "sum * 10 mod 11" form of the same rule).
function mod11Digit(digits: number[], firstWeight: number, wrapAt = Infinity): number {
  let sum = 0;
  let weight = firstWeight;
  for (const digit of digits) {
    sum += digit * weight;
    weight = weight === 2 ? wrapAt : weight - 1;
  }
  return ((sum * 10) % 11) % 10;
}

function cpfFrom(base: number[]): string {
  const first = mod11Digit(base, 10);
  const second = mod11Digit([...base, first], 11);
  return [...base, first, second].join('');
}

function cnpjFrom(base: number[]): string {
  const first = mod11Digit(base, 5, 9);
  const second = mod11Digit([...base, first], 6, 9);
  return [...base, first, second].join('');
}

const digit = fc.integer({ min: 0, max: 9 });
const notOneDigit = (ds: number[]) => ds.some((d) => d !== ds[0]);
const validCpf = fc.array(digit, { minLength: 9, maxLength: 9 }).filter(notOneDigit).map(cpfFrom);
const validCnpj = fc.array(digit, { minLength: 12, maxLength: 12 }).filter(notOneDigit).map(cnpjFrom);

function replaceDigit(s: string, index: number, shift: number): string {
  const changed = (Number(s[index]) + shift) % 10;
  return s.slice(0, index) + changed + s.slice(index + 1);
}

describe('isValidCpf', () => {
  it.each(['52998224725', '11144477735', '39053344705', '12345678909'])('accepts the valid CPF %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it.each([
    ['punctuation', '529.982.247-25'],
    ['a wrong first check digit', '52998224735'],
    ['a wrong second check digit', '52998224726'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['spaces', ' 52998224725'],
    ['a trailing newline', '52998224725\n'],
    ['letters', '5299822472a'],
    ['non-ASCII digits', '٥٢٩٩٨٢٢٤٧٢٥'],
    ['the empty string', ''],
  ])('refuses %s', (_why, cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it.each(Array.from({ length: 10 }, (_, d) => String(d).repeat(11)))('refuses the repeated sequence %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it('accepts every CPF whose check digits are computed by the oracle', () => {
    fc.assert(fc.property(validCpf, (cpf) => isValidCpf(cpf)));
  });

  it('refuses a CPF with either check digit changed', () => {
    fc.assert(
      fc.property(validCpf, fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }), (cpf, index, shift) => {
        return !isValidCpf(replaceDigit(cpf, index, shift));
      }),
    );
  });
});

describe('isValidCnpj', () => {
  it.each(['11222333000181', '11444777000161', '19131243000197', '33000167000101'])('accepts the valid CNPJ %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  it.each([
    ['punctuation', '11.222.333/0001-81'],
    ['a wrong first check digit', '11222333000191'],
    ['a wrong second check digit', '11222333000182'],
    ['13 digits', '1122233300018'],
    ['15 digits', '112223330001810'],
    ['punctuation in an alphanumeric CNPJ', '12.ABC.345/01DE-35'],
    ['lowercase letters', '12abc34501de35'],
    ['a letter in a check digit', '12ABC34501DE3A'],
    ['a wrong check digit of an alphanumeric CNPJ', '12ABC34501DE36'],
    ['a letter outside A-Z', '12ÁBC34501DE35'],
    ['a CPF', '52998224725'],
  ])('refuses %s', (_why, cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it.each(Array.from({ length: 10 }, (_, d) => String(d).repeat(14)))('refuses the repeated sequence %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('accepts every CNPJ whose check digits are computed by the oracle', () => {
    fc.assert(fc.property(validCnpj, (cnpj) => isValidCnpj(cnpj)));
  });

  it('refuses a CNPJ with either check digit changed', () => {
    fc.assert(
      fc.property(validCnpj, fc.constantFrom(12, 13), fc.integer({ min: 1, max: 9 }), (cnpj, index, shift) => {
        return !isValidCnpj(replaceDigit(cnpj, index, shift));
      }),
    );
  });
});

// The alphanumeric CNPJ's oracle: its own table of values (a digit its value, 'A' 17 ... 'Z' 42, as Receita Federal
// publishes them), not the ASCII arithmetic the code uses.
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const valueOf = (c: string): number => (c >= 'A' ? 17 + ALPHANUMERIC.indexOf(c) - 10 : Number(c));
const cnpjFromBase = (base: string): string => {
  const values = Array.from(base, valueOf);
  const first = mod11Digit(values, 5, 9);
  return base + first + mod11Digit([...values, first], 6, 9);
};
const alphanumericBase = fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 12, maxLength: 12 }).filter((b) => /[A-Z]/.test(b));
const validAlphanumericCnpj = alphanumericBase.map(cnpjFromBase);

describe('isValidCnpj, alphanumeric (issued since July 2026)', () => {
  it("accepts Receita Federal's own example, 12.ABC.345/01DE-35 as it travels", () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(documentType('12ABC34501DE35')).toBe('CNPJ');
  });

  it('accepts every alphanumeric CNPJ whose check digits are computed by the oracle', () => {
    fc.assert(fc.property(validAlphanumericCnpj, (cnpj) => isValidCnpj(cnpj) && documentType(cnpj) === 'CNPJ' && isValidCpfOrCnpj(cnpj)));
  });

  it('refuses it with either check digit changed, or made lowercase', () => {
    fc.assert(
      fc.property(validAlphanumericCnpj, fc.constantFrom(12, 13), fc.integer({ min: 1, max: 9 }), (cnpj, index, shift) => {
        return !isValidCnpj(replaceDigit(cnpj, index, shift)) && !isValidCnpj(cnpj.toLowerCase());
      }),
    );
  });

  it('refuses any one character changed, but for the changes the mod-11 rule itself cannot see', () => {
    // Receita's check digits are blind to a character moved by a multiple of 11 ('6' <-> 'A' <-> 'L' <-> 'W'), and to a
    // sum moving between the remainders 0 and 1 (both give the digit 0). Such a CNPJ is valid by the rule, so we
    // accept it too: any other change is refused.
    fc.assert(
      fc.property(validAlphanumericCnpj, fc.integer({ min: 0, max: 11 }), fc.constantFrom(...ALPHANUMERIC), (cnpj, index, c) => {
        fc.pre(cnpj[index] !== c);
        const changed = cnpj.slice(0, index) + c + cnpj.slice(index + 1);
        const blindSpot = cnpjFromBase(changed.slice(0, 12)) === changed;
        const multipleOf11 = (valueOf(c) - valueOf(cnpj[index])) % 11 === 0;
        return isValidCnpj(changed) === blindSpot && (!multipleOf11 || blindSpot);
      }),
    );
  });

  it("accepts the changes Receita's rule cannot see, as the rule does", () => {
    expect(isValidCnpj('126BC34501DE35')).toBe(true); // 'A' (17) -> '6' (6): 11 apart
    expect(isValidCnpj('12BBC34501DE35')).toBe(false);
  });
});

describe('isValidCpfOrCnpj and documentType', () => {
  it('tells a CPF from a CNPJ', () => {
    expect(documentType('52998224725')).toBe('CPF');
    expect(documentType('11222333000181')).toBe('CNPJ');
    expect(isValidCpfOrCnpj('52998224725')).toBe(true);
    expect(isValidCpfOrCnpj('11222333000181')).toBe(true);
  });

  it.each(['52998224726', '11222333000182', '00000000000', '529.982.247-25', '123'])('has no type for %s', (s) => {
    expect(documentType(s)).toBeUndefined();
    expect(isValidCpfOrCnpj(s)).toBe(false);
  });

  it('a string of 11 or 14 digits is valid exactly when the oracle agrees', () => {
    const repeated = (s: string) => s.split('').every((c) => c === s[0]);
    const base = (s: string, n: number) => Array.from(s.slice(0, n), Number);
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^\d{11}$/), fc.stringMatching(/^\d{14}$/), validCpf, validCnpj), (s) => {
        const cpf = s.length === 11 && !repeated(s) && s === cpfFrom(base(s, 9));
        const cnpj = s.length === 14 && !repeated(s) && s === cnpjFrom(base(s, 12));
        return documentType(s) === (cpf ? 'CPF' : cnpj ? 'CNPJ' : undefined) && isValidCpfOrCnpj(s) === (cpf || cnpj);
      }),
    );
  });
});
