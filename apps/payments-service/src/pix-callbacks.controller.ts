import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Environment, ENVIRONMENTS } from '@pixauto/contracts';
import { WebhookPixCallback } from '@pixauto/bank';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { PixCharges } from './pix-charges';

const environmentOf = (environment: string): Environment =>
  ENVIRONMENTS.includes(environment as Environment) ? (environment as Environment) : refuse(notFound(Messages.request.routeNotFound));

/** The bank's notifications of Pix received on our key (BCB callback `{webhookUrl}/pix`, body `{pix: [...]}`). */
@Controller('bank/:environment')
export class PixCallbacksController {
  constructor(private readonly charges: PixCharges) {}

  @Post('pix')
  @HttpCode(200)
  async notify(@Param('environment') environment: string, @Body() body: WebhookPixCallback | undefined): Promise<void> {
    const env = environmentOf(environment);
    for (const pix of body?.pix ?? []) await this.charges.recordNotified(env, pix);
  }
}
