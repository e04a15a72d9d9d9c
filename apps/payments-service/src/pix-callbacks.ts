import { Logger } from '@nestjs/common';
import { bankCallbacksProvider, PIX_RECEIVER_KEY } from '@pixauto/bank';

/** Where the bank delivers its notifications: this service's own HTTP listener (`/bank/<environment>/...`). */
export const bankCallbackPort = Number(process.env.PAYMENTS_BANK_CALLBACK_PORT ?? 4107);
export const bankCallbackBaseUrl = process.env.PAYMENTS_BANK_CALLBACK_URL ?? `http://127.0.0.1:${bankCallbackPort}`;

/**
 * The bank's notifications to this service: the Pix received on our key (`PUT /webhook/{chave}`: the bank then POSTs
 * `{webhookUrl}/pix`) and every payout's status (`PUT /webhookpagamentos`: `{webhookUrl}/pagamentos`).
 */
export const bankCallbacks = bankCallbacksProvider(
  bankCallbackBaseUrl,
  async (bank, webhookUrl) => {
    await bank.configurePixWebhook(PIX_RECEIVER_KEY, webhookUrl);
    await bank.configurePayoutWebhook(webhookUrl);
  },
  new Logger('BankCallbacks'),
);
