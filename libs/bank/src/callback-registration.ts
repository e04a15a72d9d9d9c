import { setTimeout as sleep } from 'node:timers/promises';
import { Environment, ENVIRONMENTS } from '@pixauto/contracts';
import { Banks } from './banks';
import type { PixBankClient } from './bank-client';

/** What a service tells one environment's bank: where to send which notifications, under `webhookUrl`. */
export type CallbackRegistrar = (bank: PixBankClient, webhookUrl: string) => Promise<void>;

/**
 * Tells each environment's bank where to notify a service (`<baseUrl>/bank/<environment>`), retried until the bank
 * answers: it may start after us. Owns the Banks' lifetime: at shutdown it stops retrying, then closes them. A Nest
 * provider by its hooks' names (onApplicationBootstrap, onApplicationShutdown); this lib does not depend on Nest.
 */
export class BankCallbackRegistration {
  private readonly stopped = new AbortController();
  private registering?: Promise<void>;

  constructor(
    private readonly banks: Banks,
    private readonly baseUrl: string,
    private readonly registrar: CallbackRegistrar,
    private readonly log: { warn(message: string): void },
  ) {}

  onApplicationBootstrap(): void {
    this.registering = this.register();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped.abort(); // a wait between attempts ends at once
    await this.registering;
    await this.banks.close();
  }

  private async register(): Promise<void> {
    for (const environment of ENVIRONMENTS) await this.registerWith(environment);
  }

  private async registerWith(environment: Environment): Promise<void> {
    for (let attempt = 1; !this.stopped.signal.aborted; attempt++) {
      try {
        return await this.registrar(this.banks.of({ environment }), `${this.baseUrl}/bank/${environment}`);
      } catch (error) {
        if (attempt % 10 === 1) this.log.warn(`${environment} bank not reachable yet (${String(error)}); retrying`);
        await sleep(Math.min(5000, 200 * attempt), undefined, { signal: this.stopped.signal }).catch(() => undefined);
      }
    }
  }
}

/** The registration as a Nest provider (a plain object, so this lib needs no Nest): the service's Banks injected. */
export const bankCallbacksProvider = (baseUrl: string, registrar: CallbackRegistrar, log: { warn(message: string): void }) => ({
  provide: BankCallbackRegistration,
  inject: [Banks],
  useFactory: (banks: Banks) => new BankCallbackRegistration(banks, baseUrl, registrar, log),
});
