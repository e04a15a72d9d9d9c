import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { sandboxTenantOf } from '@pixauto/runtime';
import { Payouts } from './payouts';

/** POST /v2/payout/pix, POST /v2/payout and the sandbox's status change and return, behind the gateway. */
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

  @MessagePattern(Patterns.payments.sandboxPayoutReturn)
  async sandboxReturn(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.payouts.sandboxReturn(sandboxTenantOf(request), request.params?.id, request.body));
  }

  @MessagePattern(Patterns.payments.sandboxPayoutStatus)
  async sandboxStatus(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.payouts.sandboxStatus(sandboxTenantOf(request), request.params?.id, request.body));
  }
}
