import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { sandboxTenantOf } from '@pixauto/runtime';
import { PixCharges } from './pix-charges';

/** POST and GET /v2/pix, and the sandbox payer's POST /v2/sandbox/pix/:id/pay (platform.md §3, §4), behind the gateway. */
@Controller()
export class PaymentsController {
  constructor(private readonly pixCharges: PixCharges) {}

  @MessagePattern(Patterns.payments.createPixCharge)
  create(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return this.pixCharges.create(request.tenant, request.account, request.body);
  }

  @MessagePattern(Patterns.payments.getPixCharge)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.pixCharges.get(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.sandboxPayPixCharge)
  async sandboxPay(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.pixCharges.sandboxPay(sandboxTenantOf(request), request.params?.id));
  }
}
