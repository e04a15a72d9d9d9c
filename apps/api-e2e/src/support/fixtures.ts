import { ADMIN_TOKEN, RunningSystem } from './system';
import { call } from './http';

/** A valid CPF from any 9-digit base: the check digits computed as the Receita Federal defines them. */
export function cpf(base: number): string {
  const digits = String(base).padStart(9, '0').slice(-9).split('').map(Number);
  if (digits.every((d) => d === digits[0])) digits[8] = (digits[8] + 1) % 10;
  const check = (ds: number[]) => {
    const sum = ds.reduce((acc, d, i) => acc + d * (ds.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join('');
}

let sequence = Math.floor(Math.random() * 1e8);
/** A CPF no other test uses in this run. */
export const freshCpf = (): string => cpf(++sequence);

export interface Merchant {
  accountId: string;
  production: string;
  sandbox: string;
}

export const admin = (system: RunningSystem, method: string, path: string, json?: unknown) =>
  call(system.profile.admin, method, path, { auth: `Bearer ${ADMIN_TOKEN}`, json });

/** A new account with one production and one sandbox key, through the admin API. */
export async function newMerchant(system: RunningSystem, keyOptions: object = {}): Promise<Merchant> {
  const account = await admin(system, 'POST', '/admin/accounts', { name: 'Loja E2E' });
  expect(account.status).toBe(201);
  const key = async (environment: string) => {
    const issued = await admin(system, 'POST', `/admin/accounts/${account.body.account_id}/api-keys`, { environment, ...keyOptions });
    expect(issued.status).toBe(201);
    return issued.body.api_key as string;
  };
  return { accountId: account.body.account_id, production: await key('production'), sandbox: await key('sandbox') };
}
