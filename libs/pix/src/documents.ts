// Brazilian taxpayer documents as the API receives them: digits only, check digits validated
// (service-api.md 2.1 and 4.1: debtor.document_number is a CPF of 11 or a CNPJ of 14 digits).

export type DocumentType = 'CPF' | 'CNPJ';

const CPF_PATTERN = /^\d{11}$/;
const CNPJ_PATTERN = /^\d{14}$/;

// CNPJ weights run 2..9 from the right and wrap around (Receita Federal's mod-11 rule).
const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, ...CNPJ_FIRST_WEIGHTS];

/** A CPF: exactly 11 digits (no punctuation), both check digits right, not one digit repeated. */
export function isValidCpf(s: string): boolean {
  if (!CPF_PATTERN.test(s) || isOneDigitRepeated(s)) return false;
  const digits = toDigits(s);
  const first = checkDigit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[9] === first && digits[10] === second;
}

/** A numeric CNPJ: exactly 14 digits (no punctuation), both check digits right, not one digit repeated. */
export function isValidCnpj(s: string): boolean {
  if (!CNPJ_PATTERN.test(s) || isOneDigitRepeated(s)) return false;
  const digits = toDigits(s);
  const first = checkDigit(digits.slice(0, 12), CNPJ_FIRST_WEIGHTS);
  const second = checkDigit(digits.slice(0, 13), CNPJ_SECOND_WEIGHTS);
  return digits[12] === first && digits[13] === second;
}

export function isValidCpfOrCnpj(s: string): boolean {
  return isValidCpf(s) || isValidCnpj(s);
}

/** Which document a valid number is (payout records carry document_type); undefined when invalid. */
export function documentType(s: string): DocumentType | undefined {
  if (isValidCpf(s)) return 'CPF';
  if (isValidCnpj(s)) return 'CNPJ';
  return undefined;
}

function toDigits(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0) - 48);
}

// 000.000.000-00, 111.111.111-11 ... pass the arithmetic but are not real documents.
function isOneDigitRepeated(s: string): boolean {
  return s.split('').every((c) => c === s[0]);
}

function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((total, digit, i) => total + digit * weights[i], 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
