import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { request as httpRequest } from 'undici';
import { Patterns, TenantHeaders } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { gatewayConfig } from '../gateway.config';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { TransactionsGrantGuard } from './transactions-grant.guard';
import { MerchantRoutes, Route, invalid, notFound } from '../openapi/route-doc';

const W = Messages.withdrawals;

const CSV_URL = `${gatewayConfig().payoutQueryCsvUrl}/withdrawals/period/csv`;
/** How long payout-query-service may take to start answering the CSV (the rows then stream for as long as they take). */
const CSV_HEADERS_TIMEOUT_MS = 10_000;

/** The payout lookups, served by payout-query-service; the payout receipts, by receipt-service. */
@MerchantRoutes('Payouts')
@Controller('v2/withdrawals')
export class WithdrawalsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Payout by id or transaction_id',
    description:
      'Returns a payout as it is now, found by exactly one of `id` and `transaction_id`: its status, and once completed `paid_at`, `e2e` and the receiving account. ' +
      'Lookups may lag the payout by a moment: one created a second ago may not be found yet.',
    query: [
      { name: 'id', type: 'integer', description: "The payout's `id` (an integer). Send this or `transaction_id`, not both.", example: '999999999' },
      { name: 'transaction_id', description: 'Your `transaction_id` of the payout. Send this or `id`, not both.' },
    ],
    ok: [200, 'PayoutResponse'],
    errors: [invalid(W.identifierRequired), invalid(W.onlyOneIdentifier), notFound(W.notFound)],
  })
  @Get()
  byId(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.byId, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Payouts by period',
    description:
      'Lists the payouts created between `start` and `end` (UTC), oldest first, one page at a time: `count_data` and `count_pages` say how many there are; a page past the last has an empty `data`. ' +
      'Filter by `status` to get, for example, only the completed ones (1).',
    query: [
      {
        name: 'start',
        required: true,
        description: 'Start of the period, compared with `created_at`: YYYY-MM-DD HH:MM:SS in UTC. Must be before `end`.',
        example: '2024-01-01 00:00:00',
      },
      {
        name: 'end',
        required: true,
        description: 'End of the period, YYYY-MM-DD HH:MM:SS in UTC; that whole second is included.',
        example: '2024-01-02 00:00:00',
      },
      { name: 'page', type: 'integer', description: 'The page to return, counted from 1. Default 1.' },
      { name: 'size', type: 'integer', description: 'Payouts per page: 1 to 100, default 10.' },
      {
        name: 'status',
        type: 'integer',
        enum: ['0', '1', '2', '3', '4'],
        description: 'Only payouts with this status. 0: created. 4: processing. 1: completed. 2: canceled. 3: rejected.',
      },
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
    description: 'Lists every payout to one beneficiary, all statuses, oldest first, with their count. 404 when there is none.',
    query: [
      {
        name: 'document_number',
        required: true,
        description:
          "The beneficiary's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation.",
        example: '11144477735',
      },
    ],
    ok: [200, 'PayoutsByCustomerResponse'],
    errors: [invalid(W.documentInvalid), notFound(W.noneForCustomer)],
  })
  @Get('customer')
  customer(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payoutQuery', Patterns.payoutQuery.customer, tenantOf(request), request, reply);
  }

  /** A payout the receiving bank sent back: its receipt, as a charge's refund receipt (receipt-service). */
  @Route({
    summary: 'Receipt of a returned payout',
    description:
      "Returns the bank's receipt of a return (a completed payout the receiving bank sent back) as a base64-encoded PDF, fetched from the bank at each request. Name it by exactly one of the payout's `id` or `transaction_id`, or the return's `refund_id` (shown on the payout). " +
      "A payout returned more than once answers 409 with the `refund_id`s in `detail`: ask again by `refund_id`. API keys without access to transactions get 403. The receipt of a Pix charge's refund is at GET /v2/transactions/refund/receipt.",
    query: [
      { name: 'id', type: 'integer', description: "The returned payout's `id`. Send only one of the three parameters." },
      { name: 'transaction_id', description: "The returned payout's `transaction_id`. Send only one of the three parameters.", example: 'pay-example-0000' },
      { name: 'refund_id', description: "The return's `refund_id`, as the payout shows it. Send only one of the three parameters." },
    ],
    ok: [200, 'RefundReceiptResponse'],
    errors: [
      invalid(Messages.receipts.payoutIdentifierRequired),
      notFound(Messages.receipts.noPayoutRefund),
      [403, { message: Messages.auth.transactionsForbidden }],
      [409, { message: Messages.receipts.notAvailable }],
      [409, { message: Messages.receipts.payoutAmbiguous, detail: 'ref-0001,ref-0002' }],
      [400, { message: Messages.receipts.belongsToTransaction }],
      [502, { message: Messages.receipts.failed('PROVIDER_A') }],
    ],
  })
  @UseGuards(TransactionsGrantGuard)
  @Get('refund/receipt')
  refundReceipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('receipts', Patterns.receipts.payoutRefundReceipt, tenantOf(request), request, reply);
  }

  /** The bank's proof a completed payout was paid (receipt-service). */
  @Route({
    summary: 'Receipt of a completed payout',
    description:
      "Returns the bank's proof that a payout was paid, as a base64-encoded PDF, fetched from the bank at each request; found by exactly one of `id` and `transaction_id`. " +
      'It exists once the payout is completed (status 1): until then the answer is 409. Only payouts made by PROVIDER_A or PROVIDER_B have receipts. API keys without access to transactions get 403.',
    query: [
      { name: 'id', type: 'integer', description: "The payout's `id`. Send this or `transaction_id`, not both." },
      { name: 'transaction_id', description: 'Your `transaction_id` of the payout. Send this or `id`, not both.', example: 'pay-example-0000' },
    ],
    ok: [200, 'PayoutReceiptResponse'],
    errors: [
      invalid(Messages.receipts.payoutIdentifierRequired),
      notFound(Messages.receipts.payoutNotFound),
      [403, { message: Messages.auth.transactionsForbidden }],
      [409, { message: Messages.receipts.payoutNotCompleted }],
      [502, { message: Messages.receipts.payoutFailed('PROVIDER_A') }],
    ],
  })
  @UseGuards(TransactionsGrantGuard)
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('receipts', Patterns.receipts.payoutReceipt, tenantOf(request), request, reply);
  }

  /** The CSV streams from the service's HTTP listener straight to the merchant (never held whole here). */
  @Route({
    summary: 'Payouts by period as CSV',
    description:
      'The payouts created between `start` and `end` (UTC) as a CSV file to download: one header row, then one row per payout, every status, oldest first, no pagination. ' +
      'Columns, in order: id, transaction_id, name, document_number, document_type, currency, amount, status, bank_type, bank_name, bank_code, account_agency, account_number, webhook, created_at, paid_at, e2e, psp_id, provider. ' +
      'Amounts in reais with 2 decimals, times ISO 8601 in UTC, free-text columns double-quoted, empty for none. ' +
      "A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return, which a spreadsheet would run as a formula, is written with a single quote in front of it (`'=SUM(A1)`): strip that quote if you read the file with a program rather than a spreadsheet. " +
      'An account runs one export at a time: another asked while one runs gets 429 with `Retry-After`, and 503 with `Retry-After` when the service runs as many as it can. An export whose reader takes nothing for 30 seconds is ended. ' +
      "Errors come as JSON, like every other route's.",
    query: [
      {
        name: 'start',
        required: true,
        description: 'Start of the period, compared with `created_at`: YYYY-MM-DD HH:MM:SS in UTC. Must be before `end`.',
        example: '2024-01-01 00:00:00',
      },
      {
        name: 'end',
        required: true,
        description: 'End of the period, YYYY-MM-DD HH:MM:SS in UTC; that whole second is included.',
        example: '2024-01-02 00:00:00',
      },
    ],
    ok: [200, 'PayoutCsv', 'text/csv'],
    errors: [invalid(W.startNotBeforeEnd), invalid(W.dateRequired('start')), [429, { message: W.exportsPerAccount(1) }], [503, { message: W.exportsBusy }]],
  })
  @Get('period/csv')
  async periodCsv(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    const tenant = tenantOf(request);
    const search = new URLSearchParams(request.query as Record<string, string>).toString();
    const answer = await httpRequest(`${CSV_URL}?${search}`, {
      headers: { [TenantHeaders.accountId]: tenant.accountId, [TenantHeaders.environment]: tenant.environment },
      headersTimeout: CSV_HEADERS_TIMEOUT_MS,
    }).catch(() => refuse(unavailable(Messages.request.serviceUnavailable)));
    reply.status(answer.statusCode);
    // Retry-After comes with a refused export (too many at once): the merchant learns when to ask again.
    for (const name of ['content-type', 'content-disposition', 'retry-after']) {
      const value = answer.headers[name];
      if (typeof value === 'string') reply.header(name, value);
    }
    await reply.send(answer.body);
  }
}
