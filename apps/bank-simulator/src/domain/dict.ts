// A small simulated DICT (the BCB's directory of Pix keys) and the institutions it knows: enough for payouts to a key
// to name a real-looking receiving account, deterministically, with no data to load.
import { createHash } from 'node:crypto';
import type { TipoConta } from '@pixauto/bank';
import { pixKeyType } from '@pixauto/pix';

/** A Pix participant: its ISPB, name and COMPE code. */
export interface Institution {
  ispb: string;
  nome: string;
  codigo: string;
}

/** The institutions keys resolve to (real ISPBs and COMPE codes); an account payout names any ISPB. */
export const INSTITUTIONS: readonly Institution[] = [
  { ispb: '00000000', nome: 'Banco do Brasil S.A.', codigo: '001' },
  { ispb: '60701190', nome: 'Itaú Unibanco S.A.', codigo: '341' },
  { ispb: '00360305', nome: 'Caixa Econômica Federal', codigo: '104' },
  { ispb: '60746948', nome: 'Banco Bradesco S.A.', codigo: '237' },
  { ispb: '90400888', nome: 'Banco Santander (Brasil) S.A.', codigo: '033' },
  { ispb: '18236120', nome: 'Nu Pagamentos S.A.', codigo: '260' },
];

export const institutionOf = (ispb: string): Institution | undefined => INSTITUTIONS.find((institution) => institution.ispb === ispb);

/** The account a key is registered to. */
export interface DictEntry {
  chave: string;
  ispb: string;
  agencia: string;
  conta: string;
  tipoConta: TipoConta;
}

/** Keys whose value (an e-mail's local part) starts with this are not registered: the payout test of an unknown key. */
export const UNKNOWN_KEY_PREFIX = 'naoexiste';

/**
 * The DICT's answer for a key: any key of a valid format (CPF or CNPJ with right check digits, e-mail, +55 phone, EVP)
 * is registered, except those starting with `naoexiste`; its account is chosen from the key's SHA-256, so the same key
 * always resolves to the same account. E-mail keys are compared without case.
 */
export function lookUpKey(chave: string): DictEntry | undefined {
  const type = pixKeyType(chave);
  if (type === undefined || chave.toLowerCase().startsWith(UNKNOWN_KEY_PREFIX)) return undefined;
  const hash = createHash('sha256')
    .update(type === 'EMAIL' ? chave.toLowerCase() : chave)
    .digest();
  const institution = INSTITUTIONS[hash.readUInt32BE(0) % INSTITUTIONS.length];
  return {
    chave,
    ispb: institution.ispb,
    agencia: String((hash.readUInt16BE(4) % 9999) + 1).padStart(4, '0'),
    conta: `${String(hash.readUInt32BE(6) % 10_000_000).padStart(7, '0')}-${hash[10] % 10}`,
    // A payment institution holds payment accounts; the banks, checking accounts.
    tipoConta: institution.codigo === '260' ? 'PAGAMENTO' : 'CORRENTE',
  };
}
