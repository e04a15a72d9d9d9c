import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ENVIRONMENTS, Environment } from '@pixauto/contracts';
import { WebhookRecCallback } from '@pixauto/bank';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { Recurrences } from './recurrences';

/** The bank's notifications of recurrence status changes (BCB webhookrec callback: {webhookUrl}/rec). */
@Controller('bank/:environment')
export class BankCallbacksController {
  constructor(private readonly recurrences: Recurrences) {}

  @Post('rec')
  @HttpCode(200)
  async notify(@Param('environment') environment: string, @Body() body: WebhookRecCallback): Promise<void> {
    if (!ENVIRONMENTS.includes(environment as Environment)) return refuse(notFound(Messages.request.routeNotFound));
    // One at a time, in the bank's order: several notifications may concern one recurrence.
    for (const notification of body?.recs ?? []) await this.recurrences.applyBankStatus(environment as Environment, notification);
  }
}
