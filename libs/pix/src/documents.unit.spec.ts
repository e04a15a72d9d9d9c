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
    ['letters (alphanumeric CNPJ is not accepted)', '12ABC34501DE35'],
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
