import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { WebhookPagamentosCallback, WebhookPixCallback } from '@pixauto/bank';
import { environmentOfPath } from '@pixauto/runtime';
import { DueDateCharges, isDueDateTxid } from './due-date-charges';
import { PayoutBankNotices } from './payouts';
import { PixCharges } from './pix-charges';
import { Refunds } from './refunds';

/** The bank's notifications (BCB callbacks, registered by bankCallbacks in pix-callbacks.ts): Pix received and payouts. */
@Controller('bank/:environment')
export class BankCallbacksController {
  constructor(
    private readonly charges: PixCharges,
    private readonly refunds: Refunds,
    private readonly payouts: PayoutBankNotices,
    private readonly dueDateCharges: DueDateCharges,
  ) {}

  /** `{webhookUrl}/pix`, body `{pix: [...]}`: payments on our key, and their refunds (`devolucoes`) as they change. */
  @Post('pix')
  @HttpCode(200)
  async notifyPix(@Param('environment') environment: string, @Body() body: WebhookPixCallback | undefined): Promise<void> {
    const env = environmentOfPath(environment);
    for (const pix of body?.pix ?? []) {
      if (pix.devolucoes?.length) await this.refunds.recordNotified(env, pix);
      else if (pix.txid && isDueDateTxid(pix.txid)) await this.dueDateCharges.recordNotified(env, pix);
      else await this.charges.recordNotified(env, pix);
    }
  }

  /** `{webhookUrl}/pagamentos`: every status change of a payout, in the bank's order. */
  @Post('pagamentos')
  @HttpCode(200)
  async notifyPayouts(@Param('environment') environment: string, @Body() body: WebhookPagamentosCallback | undefined): Promise<void> {
    const env = environmentOfPath(environment);
    for (const notification of body?.pagamentos ?? []) await this.payouts.recordNotified(env, notification);
  }
}
