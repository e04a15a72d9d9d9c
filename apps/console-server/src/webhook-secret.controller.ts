import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ENVIRONMENTS, type Environment, type WebhookSecretRotatedResponse } from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';
import { Gateway } from './gateway';
import type { SignedInRequest } from './session.guard';

/**
 * The account's webhook signing secret of one environment, rotated for an owner through the admin API (the console
 * holds its token): the one change of the console that is not the merchant API's. Each environment has its own
 * secret, so a sandbox webhook never verifies with the production one (docs/security.md).
 */
@Controller('console/v1/webhook-secret')
export class WebhookSecretController {
  constructor(private readonly gateway: Gateway) {}

  @Post()
  @HttpCode(200)
  rotate(@Body() body: unknown, @Req() request: SignedInRequest): Promise<WebhookSecretRotatedResponse> {
    const { environment } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (request.session.role !== 'owner') return refuse({ kind: 'forbidden', message: Messages.console.ownerOnly });
    if (!ENVIRONMENTS.includes(environment as Environment)) return refuse(validation(Messages.admin.environment));
    return this.gateway.rotateWebhookSecret(request.session.account_id, environment as Environment, { email: request.session.email });
  }
}
