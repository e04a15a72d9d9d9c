import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { ChargesDailyTotals, Patterns, reply, requiredReportDays, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { refuse } from '@pixauto/errors';
import { chargesDailyTotals } from '@pixauto/recurrences';
import { sandboxTenantOf } from '@pixauto/runtime';
import { Charges } from './charges';

const chargeIdOf = (request: ServiceRequest): string => request.params?.charge_id ?? '';

/** The charges of a recurrence and the sandbox payer's bank, behind the gateway. */
@Controller()
export class ChargesController {
  constructor(
    private readonly charges: Charges,
    private readonly dataSource: DataSource,
  ) {}

  /** GET /v2/reports/daily-totals: the charges paid per Brasília day, and the failed ones due in the period. */
  @MessagePattern(Patterns.charges.dailyTotals)
  async dailyTotals(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    const days = requiredReportDays(request.query);
    if (!days.ok) return refuse(days.refusal);
    return reply((await chargesDailyTotals(this.dataSource.manager, request.tenant, days.value)) satisfies ChargesDailyTotals);
  }

  @MessagePattern(Patterns.charges.list)
  async list(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.list(request.tenant, request.params?.recurrence_id ?? ''));
  }

  @MessagePattern(Patterns.charges.listDue)
  async listDue(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.listDue(request.tenant, request.query));
  }

  @MessagePattern(Patterns.charges.get)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.get(request.tenant, chargeIdOf(request)));
  }

  @MessagePattern(Patterns.charges.cancel)
  async cancel(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.cancel(request.tenant, chargeIdOf(request), request.body));
  }

  @MessagePattern(Patterns.charges.reschedule)
  async reschedule(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.reschedule(request.tenant, chargeIdOf(request), request.body));
  }

  @MessagePattern(Patterns.charges.retry)
  async retry(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.retry(request.tenant, chargeIdOf(request), request.body));
  }

  @MessagePattern(Patterns.charges.sandboxPay)
  async pay(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.sandboxSettle(sandboxTenantOf(request), chargeIdOf(request), 'pay'));
  }

  @MessagePattern(Patterns.charges.sandboxFail)
  async fail(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.charges.sandboxSettle(sandboxTenantOf(request), chargeIdOf(request), 'fail'));
  }
}
