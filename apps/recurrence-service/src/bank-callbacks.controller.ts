import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { WebhookCobRCallback, WebhookRecCallback } from '@pixauto/bank';
import { environmentOfPath } from '@pixauto/runtime';
import { Charges } from './charges';
import { Recurrences } from './recurrences';

/** The bank's notifications (BCB callbacks): recurrence status changes ({webhookUrl}/rec) and debits ({webhookUrl}/cobr). */
@Controller('bank/:environment')
export class BankCallbacksController {
  constructor(
    private readonly recurrences: Recurrences,
    private readonly charges: Charges,
  ) {}

  @Post('rec')
  @HttpCode(200)
  async notify(@Param('environment') environment: string, @Body() body: WebhookRecCallback): Promise<void> {
    const env = environmentOfPath(environment);
    // One at a time, in the bank's order: several notifications may concern one recurrence.
    for (const notification of body?.recs ?? []) await this.recurrences.applyBankStatus(env, notification);
  }

  @Post('cobr')
  @HttpCode(200)
  async notifyCharges(@Param('environment') environment: string, @Body() body: WebhookCobRCallback): Promise<void> {
    const env = environmentOfPath(environment);
    for (const notification of body?.cobsr ?? []) await this.charges.applyBankCharge(env, notification);
  }
}
