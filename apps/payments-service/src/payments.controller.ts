import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { PaymentsDailyTotals, Patterns, reply, requiredReportDays, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { refuse } from '@pixauto/errors';
import { paymentsDailyTotals } from '@pixauto/payments';
import { sandboxTenantOf } from '@pixauto/runtime';
import { PixCharges } from './pix-charges';
import { Disputes } from './disputes';
import { Refunds } from './refunds';

/** POST and GET /v2/pix, GET /v2/pix/charges, refunds and their list, disputes, and the sandbox's POST /v2/sandbox/pix/:id/pay, refunds and disputes, behind the gateway. */
@Controller()
export class PaymentsController {
  constructor(
    private readonly pixCharges: PixCharges,
    private readonly refunds: Refunds,
    private readonly disputes: Disputes,
    private readonly dataSource: DataSource,
  ) {}

  /** GET /v2/reports/daily-totals: Pix charges paid and refunds made per Brasília day. */
  @MessagePattern(Patterns.payments.dailyTotals)
  async dailyTotals(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    const days = requiredReportDays(request.query);
    if (!days.ok) return refuse(days.refusal);
    return reply((await paymentsDailyTotals(this.dataSource.manager, request.tenant, days.value)) satisfies PaymentsDailyTotals);
  }

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

  @MessagePattern(Patterns.payments.listDisputes)
  async listDisputes(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.disputes.list(request.tenant, request.query));
  }

  @MessagePattern(Patterns.payments.getDispute)
  async getDispute(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.disputes.get(request.tenant, request.params?.id));
  }

  @MessagePattern(Patterns.payments.getDisputeEvidence)
  async getDisputeEvidence(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.disputes.evidence(request.tenant, request.params?.id, request.params?.evidence_id));
  }

  @MessagePattern(Patterns.payments.defendDispute)
  async defendDispute(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.disputes.defend(request.tenant, request.params?.id, request.body));
  }

  @MessagePattern(Patterns.payments.sandboxOpenDispute)
  async sandboxOpenDispute(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.disputes.sandboxOpen(sandboxTenantOf(request), request.params?.id, request.body), 201);
  }
}
