import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENVIRONMENTS } from '@pixauto/contracts';
import { Banks, PIX_RECEIVER_KEY } from '@pixauto/bank';
import { SERVICE_CONFIG, ServiceConfig } from '@pixauto/runtime';

/** Where the bank delivers its notifications: this service's own HTTP listener (`/bank/<environment>/...`). */
export const bankCallbackPort = Number(process.env.PAYMENTS_BANK_CALLBACK_PORT ?? 4107);
export const bankCallbackBaseUrl = process.env.PAYMENTS_BANK_CALLBACK_URL ?? `http://127.0.0.1:${bankCallbackPort}`;

/**
 * Tells each environment's bank where to notify us: the Pix received on our key (`PUT /webhook/{chave}`: the bank then
 * POSTs `{webhookUrl}/pix`) and every payout's status (`PUT /webhookpagamentos`: `{webhookUrl}/pagamentos`); retried
 * until the bank answers (it may start after us).
 */
@Injectable()
export class BankWebhookRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PixWebhook');
  private stopped = false;
  private registering?: Promise<void>;

  constructor(
    private readonly banks: Banks,
    @Inject(SERVICE_CONFIG) private readonly service: ServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.registering = this.register();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.registering;
    await this.banks.close();
  }

  private async register(): Promise<void> {
    for (const environment of ENVIRONMENTS) {
      for (let attempt = 1; !this.stopped; attempt++) {
        try {
          const bank = this.banks.of({ environment });
          await bank.configurePixWebhook(PIX_RECEIVER_KEY, `${bankCallbackBaseUrl}/bank/${environment}`);
          await bank.configurePayoutWebhook(`${bankCallbackBaseUrl}/bank/${environment}`);
          break;
        } catch (error) {
          if (attempt % 10 === 1) this.logger.warn(`${this.service.service}: ${environment} bank not reachable yet (${String(error)}); retrying`);
          await sleep(Math.min(5000, 200 * attempt));
        }
      }
    }
  }
}
