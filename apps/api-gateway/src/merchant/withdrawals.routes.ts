import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { request as httpRequest } from 'undici';
import { Patterns, TenantHeaders } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { gatewayConfig } from '../gateway.config';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { MerchantRoutes, Route, invalid, notFound } from '../openapi/route-doc';

const W = Messages.withdrawals;

const CSV_URL = `${gatewayConfig().payoutQueryCsvUrl}/withdrawals/period/csv`;
/** How long payout-query-service may take to start answering the CSV (the rows then stream for as long as they take). */
const CSV_HEADERS_TIMEOUT_MS = 10_000;

/** The payout lookups (service-api.md 4.8 to 4.11), served by payout-query-service; the payout receipts, by receipt-service. */
@MerchantRoutes('Payouts')
@Controller('v2/withdrawals')
export class WithdrawalsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Payout by id or transaction_id',
    description: 'service-api.md 4.8.',
    query: [{ name: 'id', type: 'integer', example: '999999999' }, { name: 'transaction_id' }],
    ok: [200, 'PayoutResponse'],
    errors: [invalid(W.identifierRequired), invalid(W.onlyOneIdentifier), notFound(W.notFound)],
  })
  @Get()
  byId(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.byId, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Payouts by period',
    description: 'service-api.md 4.9.',
    query: [
      { name: 'start', required: true, description: 'YYYY-MM-DD HH:MM:SS (UTC)', example: '2024-01-01 00:00:00' },
      { name: 'end', required: true, description: 'YYYY-MM-DD HH:MM:SS (UTC)', example: '2024-01-02 00:00:00' },
      { name: 'page', type: 'integer', description: 'Default 1' },
      { name: 'size', type: 'integer', description: 'At most 100' },
      { name: 'status', type: 'integer', enum: ['0', '1', '2', '3', '4'] },
    ],
    ok: [200, 'PayoutPageResponse'],
    errors: [invalid(W.sizeTooLarge), invalid(W.startNotBeforeEnd)],
  })
  @Get('period')
  period(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.period, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Payouts of a customer',
    description: 'service-api.md 4.10: the full history.',
    query: [{ name: 'document_number', required: true, description: 'CPF or CNPJ', example: '11144477735' }],
    ok: [200, 'PayoutsByCustomerResponse'],
    errors: [invalid(W.documentInvalid), notFound(W.noneForCustomer)],
  })
  @Get('customer')
  customer(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.customer, tenantOf(request), request, reply);
  }

  /** A payout the receiving bank sent back: its receipt, as 4.12's for a charge (receipt-service). */
  @Route({
    summary: 'Receipt of a returned payout',
    description: 'As service-api.md 4.12, for a payout the receiving bank sent back.',
    query: [{ name: 'id', type: 'integer' }, { name: 'transaction_id', example: 'pay-example-0000' }, { name: 'refund_id' }],
    ok: [200, 'RefundReceiptResponse'],
    errors: [invalid(Messages.receipts.payoutIdentifierRequired), notFound(Messages.receipts.noPayoutRefund), [403, { message: Messages.auth.transactionsForbidden }], [409, { message: Messages.receipts.notAvailable }], [409, { message: Messages.receipts.payoutAmbiguous, detail: 'ref-0001,ref-0002' }], [400, { message: Messages.receipts.belongsToTransaction }], [502, { message: Messages.receipts.failed('PROVIDER_A') }]],
  })
  @Get('refund/receipt')
  refundReceipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.payoutRefundReceipt, tenantOf(request), request, reply);
  }

  /** The bank's proof a completed payout was paid (receipt-service). */
  @Route({
    summary: 'Receipt of a completed payout',
    query: [{ name: 'id', type: 'integer' }, { name: 'transaction_id', example: 'pay-example-0000' }],
    ok: [200, 'PayoutReceiptResponse'],
    errors: [invalid(Messages.receipts.payoutIdentifierRequired), notFound(Messages.receipts.payoutNotFound), [403, { message: Messages.auth.transactionsForbidden }], [409, { message: Messages.receipts.payoutNotCompleted }], [502, { message: Messages.receipts.payoutFailed('PROVIDER_A') }]],
  })
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.payoutReceipt, tenantOf(request), request, reply);
  }

  /** The CSV streams from the service's HTTP listener straight to the merchant (never held whole here). */
  @Route({
    summary: 'Payouts by period as CSV',
    description: 'service-api.md 4.11: one header row, then one row per payout, all statuses, no pagination.',
    query: [
      { name: 'start', required: true, description: 'YYYY-MM-DD HH:MM:SS (UTC)', example: '2024-01-01 00:00:00' },
      { name: 'end', required: true, description: 'YYYY-MM-DD HH:MM:SS (UTC)', example: '2024-01-02 00:00:00' },
    ],
    ok: [200, 'PayoutCsv', 'text/csv'],
    errors: [invalid(W.startNotBeforeEnd), invalid(W.dateRequired('start'))],
  })
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
