import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { request as httpRequest } from 'undici';
import { Patterns, TenantHeaders } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { gatewayConfig } from '../gateway.config';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

const CSV_URL = `${gatewayConfig().payoutQueryCsvUrl}/withdrawals/period/csv`;
/** How long payout-query-service may take to start answering the CSV (the rows then stream for as long as they take). */
const CSV_HEADERS_TIMEOUT_MS = 10_000;

/** The payout lookups (service-api.md 4.8 to 4.11), served by payout-query-service; the payout receipts, by receipt-service. */
@Controller('v2/withdrawals')
export class WithdrawalsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Get()
  byId(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.byId, tenantOf(request), request, reply);
  }

  @Get('period')
  period(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.period, tenantOf(request), request, reply);
  }

  @Get('customer')
  customer(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.customer, tenantOf(request), request, reply);
  }

  /** A payout the receiving bank sent back: its receipt, as 4.12's for a charge (receipt-service). */
  @Get('refund/receipt')
  refundReceipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.payoutRefundReceipt, tenantOf(request), request, reply);
  }

  /** The bank's proof a completed payout was paid (receipt-service). */
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.payoutReceipt, tenantOf(request), request, reply);
  }

  /** The CSV streams from the service's HTTP listener straight to the merchant (never held whole here). */
  @Get('period/csv')
  async periodCsv(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    const tenant = tenantOf(request);
    const search = new URLSearchParams(request.query as Record<string, string>).toString();
    const answer = await httpRequest(`${CSV_URL}?${search}`, {
      headers: { [TenantHeaders.accountId]: tenant.accountId, [TenantHeaders.environment]: tenant.environment },
      headersTimeout: CSV_HEADERS_TIMEOUT_MS,
    }).catch(() => refuse(unavailable(Messages.request.serviceUnavailable)));
    const contentType = answer.headers['content-type'];
    const disposition = answer.headers['content-disposition'];
    reply.status(answer.statusCode);
    if (typeof contentType === 'string') reply.header('content-type', contentType);
    if (typeof disposition === 'string') reply.header('content-disposition', disposition);
    await reply.send(answer.body);
  }
}
