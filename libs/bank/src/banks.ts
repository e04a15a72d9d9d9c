import { Environment, Tenant } from '@pixauto/contracts';
import { PixBankClient } from './bank-client';
import { SimulatedPayer } from './simulated-payer';

export interface BankSettings {
  url: string;
  token: string;
}

/**
 * The bank behind each environment: one adapter, configured by URL and credentials.
 * Locally both point at the bank simulator, which keeps each token's data apart.
 */
export class Banks {
  private readonly clients: Record<Environment, PixBankClient>;
  /** The payer's side exists only in the sandbox. */
  readonly sandboxPayer: SimulatedPayer;

  constructor(readonly settings: Record<Environment, BankSettings>) {
    this.clients = {
      production: new PixBankClient(settings.production.url, { token: settings.production.token }),
      sandbox: new PixBankClient(settings.sandbox.url, { token: settings.sandbox.token }),
    };
    this.sandboxPayer = new SimulatedPayer(settings.sandbox.url, { token: settings.sandbox.token });
  }

  /** The tenant's bank; with `now`, a sandbox tenant's calls carry its test clock's now (production's never do). */
  of(tenant: Pick<Tenant, 'environment'>, now?: Date): PixBankClient {
    const bank = this.clients[tenant.environment];
    return now && tenant.environment === 'sandbox' ? bank.at(now) : bank;
  }

  async close(): Promise<void> {
    await Promise.all([this.clients.production.close(), this.clients.sandbox.close(), this.sandboxPayer.close()]);
  }
}

export const bankSettings = (env: NodeJS.ProcessEnv = process.env): Record<Environment, BankSettings> => ({
  production: { url: env.BANK_PRODUCTION_URL ?? 'http://127.0.0.1:4010', token: env.BANK_PRODUCTION_TOKEN ?? 'pixauto-production' },
  sandbox: { url: env.BANK_SANDBOX_URL ?? 'http://127.0.0.1:4010', token: env.BANK_SANDBOX_TOKEN ?? 'pixauto-sandbox' },
});

/** The platform's DICT key at the bank, named as `chave` on every immediate charge (cash-in and journey 3 activations). */
export const PIX_RECEIVER_KEY = process.env.PIX_RECEIVER_KEY ?? '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
