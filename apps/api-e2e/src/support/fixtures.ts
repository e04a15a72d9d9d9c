import { adminClient } from '@pixauto/api-client/admin';
import { alphanumericCnpj } from '@pixauto/testing';
import { ADMIN_TOKEN, RunningSystem } from './running-system';
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

/** An alphanumeric CNPJ no other test uses in this run (letters in it, whatever the sequence). */
export const freshAlphanumericCnpj = (): string => alphanumericCnpj(`AB${String(++sequence).padStart(10, '0').slice(-10)}`);

export interface Merchant {
  accountId: string;
  production: string;
  sandbox: string;
}

export const admin = (system: RunningSystem, method: string, path: string, json?: unknown) =>
  call(system.profile.admin, method, path, { auth: `Bearer ${ADMIN_TOKEN}`, json });

/** A new account with one production and one sandbox key, through the admin API and its typed client (libs/api-client). */
export async function newMerchant(system: RunningSystem, keyOptions: { read_only?: boolean; transactions?: boolean } = {}): Promise<Merchant> {
  const client = adminClient(`http://127.0.0.1:${system.profile.admin}`, ADMIN_TOKEN);
  const account = await client.POST('/admin/accounts', { body: { name: 'Loja E2E' } });
  expect(account.response.status).toBe(201);
  const accountId = account.data!.account_id;
  const key = async (environment: 'production' | 'sandbox') => {
    const issued = await client.POST('/admin/accounts/{account_id}/api-keys', {
      params: { path: { account_id: accountId } },
      body: { environment, ...keyOptions },
    });
    expect(issued.response.status).toBe(201);
    return issued.data!.api_key;
  };
  return { accountId, production: await key('production'), sandbox: await key('sandbox') };
}
