import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { sandboxTenantOf } from '@pixauto/runtime';
import { DueDateCharges } from './due-date-charges';

/** POST, GET and PATCH /v2/cobv, GET /v2/cobv/charges and the sandbox's POST /v2/sandbox/cobv/:id/pay, behind the gateway. */
@Controller()
export class DueDateChargesController {
  constructor(private readonly charges: DueDateCharges) {}

  @MessagePattern(Patterns.payments.createDueDateCharge)
  create(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return this.charges.create(request.tenant, request.account, request.body);
  }

  @MessagePattern(Patterns.payments.getDueDateCharge)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.get(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.listDueDateCharges)
  async list(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.list(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.changeDueDateCharge)
  async change(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.change(request.tenant, request.params?.id, request.body));
  }

  @MessagePattern(Patterns.payments.sandboxPayDueDateCharge)
  async sandboxPay(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.sandboxPay(sandboxTenantOf(request), request.params?.id));
  }
}
