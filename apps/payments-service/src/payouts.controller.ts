import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Environment, ENVIRONMENTS, Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { WebhookPagamentosCallback } from '@pixauto/bank';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { sandboxTenantOf } from '@pixauto/runtime';
import { PayoutBankNotices, Payouts } from './payouts';

/** POST /v2/payout/pix, POST /v2/payout and the sandbox's status change (platform.md §3, §4), behind the gateway. */
@Controller()
export class PayoutsController {
  constructor(private readonly payouts: Payouts) {}

  @MessagePattern(Patterns.payments.createPixPayout)
  createToPixKey(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return this.payouts.create(request.tenant, request.account, 'pix', request.body);
  }

  @MessagePattern(Patterns.payments.createAccountPayout)
  createToAccount(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return this.payouts.create(request.tenant, request.account, 'account', request.body);
  }

  @MessagePattern(Patterns.payments.sandboxPayoutStatus)
  async sandboxStatus(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.payouts.sandboxStatus(sandboxTenantOf(request), request.params?.id, request.body));
  }
}

const environmentOf = (environment: string): Environment =>
  ENVIRONMENTS.includes(environment as Environment) ? (environment as Environment) : refuse(notFound(Messages.request.routeNotFound));

/** The bank's payout notifications ({webhookUrl}/pagamentos): every status change of a payout, in the bank's order. */
@Controller('bank/:environment')
export class PayoutBankCallbacksController {
  constructor(private readonly notices: PayoutBankNotices) {}

  @Post('pagamentos')
  @HttpCode(200)
  async notify(@Param('environment') environment: string, @Body() body: WebhookPagamentosCallback): Promise<void> {
    const env = environmentOf(environment);
    for (const notification of body?.pagamentos ?? []) await this.notices.recordNotified(env, notification);
  }
}
