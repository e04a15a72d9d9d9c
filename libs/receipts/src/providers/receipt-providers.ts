import { ProviderAClient } from './provider-a';
import { ProviderBClient } from './provider-b';
import { ReceiptProviderClient } from './receipt-provider';

export interface ReceiptProviderSettings {
  urls: Record<string, string>;
  timeoutMs: number;
}

/** Where each provider's API is (the bank simulator serves both locally) and how long a receipt may take. */
export const receiptProviderSettings = (env: NodeJS.ProcessEnv = process.env): ReceiptProviderSettings => ({
  urls: {
    PROVIDER_A: env.PROVIDER_A_URL ?? 'http://127.0.0.1:4010/provider-a',
    PROVIDER_B: env.PROVIDER_B_URL ?? 'http://127.0.0.1:4010/provider-b',
  },
  timeoutMs: Number(env.PROVIDER_TIMEOUT_MS ?? 5000),
});

/** The banks with a receipt API, by code (PROVIDER_C processes charges but has none). */
export class ReceiptProviders {
  private readonly clients: Map<string, ReceiptProviderClient>;

  constructor(settings: ReceiptProviderSettings) {
    const connection = (code: string) => ({ url: settings.urls[code], timeoutMs: settings.timeoutMs });
    this.clients = new Map<string, ReceiptProviderClient>([
      ['PROVIDER_A', new ProviderAClient(connection('PROVIDER_A'))],
      ['PROVIDER_B', new ProviderBClient(connection('PROVIDER_B'))],
    ]);
  }

  of(code: string): ReceiptProviderClient | undefined {
    return this.clients.get(code);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }
}
