import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { sandboxTenantOf } from '@pixauto/runtime';
import { PixCharges } from './pix-charges';
import { Refunds } from './refunds';

/** POST and GET /v2/pix, GET /v2/pix/charges, refunds and their list, and the sandbox's POST /v2/sandbox/pix/:id/pay and refunds, behind the gateway. */
@Controller()
export class PaymentsController {
  constructor(
    private readonly pixCharges: PixCharges,
    private readonly refunds: Refunds,
  ) {}

  @MessagePattern(Patterns.payments.createPixCharge)
  create(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return this.pixCharges.create(request.tenant, request.account, request.body);
  }

  @MessagePattern(Patterns.payments.getPixCharge)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.pixCharges.get(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.listPixCharges)
  async list(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.pixCharges.list(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.sandboxPayPixCharge)
  async sandboxPay(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.pixCharges.sandboxPay(sandboxTenantOf(request), request.params?.id));
  }

  @MessagePattern(Patterns.payments.createRefund)
  async createRefund(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.refunds.create(request.tenant, request.body), 201);
  }

  @MessagePattern(Patterns.payments.listRefunds)
  async listRefunds(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.refunds.list(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.sandboxRefund)
  async sandboxRefund(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.refunds.sandboxCreate(sandboxTenantOf(request), request.params?.id, request.body), 201);
  }

  @MessagePattern(Patterns.payments.sandboxSettleRefund)
  async sandboxSettleRefund(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.refunds.sandboxSettle(sandboxTenantOf(request), request.params?.id));
  }
}
