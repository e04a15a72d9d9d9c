import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ChargesDailyTotals,
  composeDailyTotals,
  DailyTotalsResponse,
  DeliveriesDailyTotals,
  MAX_REPORT_DAYS,
  parseReportDays,
  Patterns,
  PaymentsDailyTotals,
  PayoutsDailyTotals,
  ServiceReply,
} from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { SandboxClocks } from '../sandbox-clocks';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { MerchantRoutes, Route, invalid } from '../openapi/route-doc';

const R = Messages.reports;

const bodyOf = <T>(answer: ServiceReply): T => (answer.json === undefined ? answer.body : JSON.parse(answer.json)) as T;

/**
 * GET /v2/reports/daily-totals: the money moved per Brasília day, each kind summed by the service that owns it (one
 * GROUP BY each), asked of the four in parallel and composed here (docs/api/reports.md).
 */
@MerchantRoutes('Reports')
@Controller('v2/reports')
export class ReportsRoutes {
  constructor(
    private readonly upstreams: Upstreams,
    private readonly clocks: SandboxClocks,
  ) {}

  @Route({
    summary: 'Daily totals',
    description:
      "The money that moved in your account per Brasília day, exact to the centavo: Automatic Pix charges paid and Pix charges paid (on the day they were paid), refunds (on the day they were asked for, failed ones left out) and payouts (on the day they were made, canceled and rejected ones left out), with the period's totals. " +
      'Also what needs attention in the period: payouts the bank rejected, webhook deliveries whose every attempt failed, and the Automatic Pix charges due in it that failed (how many, and the latest 10). ' +
      `Without \`start_day\` and \`end_day\` it covers the 30 days ending today (in the sandbox, today on your test clock); \`start_day\` and \`end_day\` say which days it covered. At most ${MAX_REPORT_DAYS} days in one request. ` +
      'Read-only keys may read it. Figures of something you did a moment ago are in it.',
    query: [
      { name: 'start_day', description: 'The first day, YYYY-MM-DD (Brasília). Default: 29 days before `end_day`.', example: '2026-11-01' },
      { name: 'end_day', description: 'The last day, included, YYYY-MM-DD (Brasília). Default: today.', example: '2026-11-30' },
    ],
    ok: [200, 'DailyTotalsResponse'],
    errors: [invalid(R.dayInvalid('query.start_day')), invalid(R.periodOrder), invalid(R.periodTooLong(MAX_REPORT_DAYS))],
  })
  @Get('daily-totals')
  async dailyTotals(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    const tenant = tenantOf(request);
    const days = parseReportDays((request.query ?? {}) as Record<string, unknown>, await this.clocks.today(tenant));
    if (!days.ok) return refuse(days.refusal);
    const query = { ...days.value };
    const [payments, payouts, charges, deliveries] = await Promise.all([
      this.upstreams.ask('payments', Patterns.payments.dailyTotals, tenant, request, query),
      this.upstreams.ask('payoutQuery', Patterns.payoutQuery.dailyTotals, tenant, request, query),
      this.upstreams.ask('recurrences', Patterns.charges.dailyTotals, tenant, request, query),
      this.upstreams.ask('webhooks', Patterns.webhooks.dailyTotals, tenant, request, query),
    ]);
    // A part refused (a service's 503, its followers behind the merchant's own writes) is the whole answer: a figure
    // not read is never shown as a zero.
    const refused = [payments, payouts, charges, deliveries].find((answer) => answer.status !== 200);
    if (refused) {
      await reply
        .status(refused.status)
        .headers(refused.headers ?? {})
        .send(bodyOf(refused));
      return;
    }
    const totals: DailyTotalsResponse = composeDailyTotals(days.value, {
      payments: bodyOf<PaymentsDailyTotals>(payments),
      payouts: bodyOf<PayoutsDailyTotals>(payouts),
      charges: bodyOf<ChargesDailyTotals>(charges),
      deliveries: bodyOf<DeliveriesDailyTotals>(deliveries),
    });
    await reply.status(200).send(totals);
  }
}
