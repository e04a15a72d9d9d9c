import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import {
  Environment,
  ENVIRONMENTS,
  Patterns,
  payoutResponse,
  PayoutsDailyTotals,
  reply,
  replyJson,
  requiredReportDays,
  ServiceReply,
  ServiceRequest,
  Tenant,
  TenantHeaders,
} from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import {
  customerPayouts,
  findPayoutLookup,
  payoutsDailyTotals,
  parseCustomer,
  parseLookup,
  parsePeriod,
  parsePeriodPage,
  periodPageJson,
} from '@pixauto/payout-query';
import { PayoutCsvExport } from './payout-csv-export';

/** The four payout lookups (docs/decisions/payout-lookups.md), from this service's read model only. */
@Controller()
export class PayoutLookupsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly csv: PayoutCsvExport,
  ) {}

  @MessagePattern(Patterns.payoutQuery.byId)
  async byId(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const lookup = parseLookup(query ?? {});
    if (!lookup.ok) return refuse(lookup.refusal);
    const found = (await findPayoutLookup(this.dataSource.manager, tenant, lookup.value)) ?? refuse(notFound(Messages.withdrawals.notFound));
    return reply(payoutResponse(found, 'by_id'));
  }

  @MessagePattern(Patterns.payoutQuery.period)
  async period(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const asked = parsePeriodPage(query ?? {});
    if (!asked.ok) return refuse(asked.refusal);
    return replyJson(await periodPageJson(this.dataSource.manager, tenant, asked.value));
  }

  /** GET /v2/reports/daily-totals: payouts made per Brasília day, and the rejected ones. */
  @MessagePattern(Patterns.payoutQuery.dailyTotals)
  async dailyTotals(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const days = requiredReportDays(query);
    if (!days.ok) return refuse(days.refusal);
    return reply((await payoutsDailyTotals(this.dataSource.manager, tenant, days.value)) satisfies PayoutsDailyTotals);
  }

  @MessagePattern(Patterns.payoutQuery.customer)
  async customer(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const document = parseCustomer(query ?? {});
    if (!document.ok) return refuse(document.refusal);
    const payouts = await customerPayouts(this.dataSource.manager, tenant, document.value);
    if (payouts.length === 0) return refuse(notFound(Messages.withdrawals.noneForCustomer));
    return reply({ data: payouts.map((p) => payoutResponse(p, 'customer')), total: payouts.length });
  }

  /** 4.11 on the internal HTTP listener: the gateway pipes this answer to the merchant as it comes. */
  @Get('withdrawals/period/csv')
  async periodCsv(
    @Query() query: Record<string, unknown>,
    @Headers(TenantHeaders.accountId) accountId: string | undefined,
    @Headers(TenantHeaders.environment) environment: string | undefined,
    @Res() response: FastifyReply,
  ): Promise<void> {
    if (!accountId || !ENVIRONMENTS.includes(environment as Environment)) return refuse(notFound(Messages.request.routeNotFound));
    const tenant: Tenant = { accountId, environment: environment as Environment };
    const period = parsePeriod(query);
    if (!period.ok) return refuse(period.refusal);
    await this.csv.send(tenant, period.value, response);
  }
}
