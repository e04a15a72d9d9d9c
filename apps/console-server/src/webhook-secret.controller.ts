import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { WebhookSecretRotatedResponse } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Gateway } from './gateway';
import type { SignedInRequest } from './session.guard';

/**
 * The account's webhook signing secret, rotated for an owner through the admin API (the console holds its token): the
 * one change of the console that is not the merchant API's. The secret is the account's, the same in both environments.
 */
@Controller('console/v1/webhook-secret')
export class WebhookSecretController {
  constructor(private readonly gateway: Gateway) {}

  @Post()
  @HttpCode(200)
  rotate(@Req() request: SignedInRequest): Promise<WebhookSecretRotatedResponse> {
    if (request.session.role !== 'owner') return refuse({ kind: 'forbidden', message: Messages.console.ownerOnly });
    return this.gateway.rotateWebhookSecret(request.session.account_id);
  }
}
