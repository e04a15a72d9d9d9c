// Brazilian taxpayer documents as the API receives them: one wire form, check digits validated
// (docs/decisions/documents.md). A CPF is 11 digits. A CNPJ is 14 characters: 12 from [0-9A-Z] and two numeric
// check digits; the alphanumeric form is issued by Receita Federal since July 2026 (IN RFB 2.229/2024) and the
// numeric one stays valid as it is. Lowercase letters and punctuation are refused, never normalized.

export type DocumentType = 'CPF' | 'CNPJ';

const CPF_PATTERN = /^\d{11}$/;
const CNPJ_PATTERN = /^[0-9A-Z]{12}\d{2}$/;

// CNPJ weights run 2..9 from the right and wrap around (Receita Federal's mod-11 rule).
const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, ...CNPJ_FIRST_WEIGHTS];

/** A CPF: exactly 11 digits (no punctuation), both check digits right, not one digit repeated. */
export function isValidCpf(s: string): boolean {
  if (!CPF_PATTERN.test(s) || isOneCharacterRepeated(s)) return false;
  const values = toValues(s);
  const first = checkDigit(values.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(values.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return values[9] === first && values[10] === second;
}

/**
 * A CNPJ, numeric or alphanumeric: 12 characters from [0-9A-Z] then two check digits (no punctuation, uppercase
 * only), both check digits right, not one digit repeated. Each character counts as its ASCII code minus 48, so a
 * digit keeps its value and 'A' counts 17: the numeric CNPJ's rule unchanged.
 */
export function isValidCnpj(s: string): boolean {
  if (!CNPJ_PATTERN.test(s) || isOneCharacterRepeated(s)) return false;
  const values = toValues(s);
  const first = checkDigit(values.slice(0, 12), CNPJ_FIRST_WEIGHTS);
  const second = checkDigit(values.slice(0, 13), CNPJ_SECOND_WEIGHTS);
  return values[12] === first && values[13] === second;
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

function toValues(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0) - 48);
}

// 000.000.000-00, 111.111.111-11 ... pass the arithmetic but are not real documents.
function isOneCharacterRepeated(s: string): boolean {
  return s.split('').every((c) => c === s[0]);
}

function checkDigit(values: number[], weights: number[]): number {
  const sum = values.reduce((total, value, i) => total + value * weights[i], 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
