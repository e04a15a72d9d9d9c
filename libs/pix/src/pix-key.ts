import { isValidCnpj, isValidCpf } from './documents';

// Pix keys (DICT): a CPF, a CNPJ (numeric or alphanumeric), an e-mail, a phone number in E.164 with +55, or a random key (EVP, a UUID).

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+55[1-9]{2}9?\d{8}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key's type, or undefined when it is none of them (an e-mail key is at most 77 characters, as in the DICT). */
export function pixKeyType(key: string): PixKeyType | undefined {
  if (/^\d{11}$/.test(key)) return isValidCpf(key) ? 'CPF' : undefined;
  if (/^[0-9A-Z]{12}\d{2}$/.test(key)) return isValidCnpj(key) ? 'CNPJ' : undefined;
  if (PHONE.test(key)) return 'PHONE';
  if (EVP.test(key)) return 'EVP';
  if (key.length <= 77 && EMAIL.test(key)) return 'EMAIL';
  return undefined;
}
