import { Controller, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Messages } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { TransactionsGrantGuard } from './transactions-grant.guard';
import { BANK_REFUSALS, EXAMPLE_NUMBER, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound, periodPageQuery } from '../openapi/route-doc';

const P = Messages.payments;
const F = Messages.refunds;

/**
 * POST /v2/transactions/refund: a refund of a paid cash-in charge, served by payments-service; and its
 * receipt, GET /v2/transactions/refund/receipt, fetched live from the bank by receipt-service.
 */
@MerchantRoutes('Refunds')
@Controller('v2/transactions/refund')
export class RefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Refund a paid Pix charge',
    description:
      "Refunds a PAID Pix charge, named by exactly one of `id` and `transaction_id`, in whole or in part: several partial refunds may follow each other, never more in all than the charge's amount. Without `amount`, everything that is left is refunded. " +
      'The refund is answered PROCESSING and sent to the bank, which settles it (REFUNDED, with `refunded_at`) or refuses it (FAILED); a refusal at once is answered as a ProviderError. ' +
      'With a `webhook` on the charge, `pix_charge.refund_requested`, `pix_charge.refunded` or `pix_charge.refund_failed` are notified there. Once REFUNDED, its receipt is at GET /v2/transactions/refund/receipt. ' +
      '`refund_id` is unique in your account: repeating a refund with the same one is refused, never refunds twice.',
    body: 'CreateRefundRequest',
    example: { transaction_id: 'pix-example-0001', refund_id: 'ref-example-0001', amount: 1 },
    ok: [201, 'RefundResponse'],
    errors: [
      invalid(F.identifierRequired),
      invalid(F.refundIdTaken),
      invalid(F.notPaid('PENDING')),
      notFound(F.transactionNotFound),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createRefund, tenantOf(request), request, reply);
  }

  /** A key with `transactions: false` is refused before anything is read (TransactionsGrantGuard). */
  @Route({
    summary: 'Refund receipt',
    description:
      "Returns the bank's receipt of a refund as a base64-encoded PDF, fetched from the bank at each request with your account's credentials (nothing is kept). Name the refund by exactly one of `refund_id`, or the refunded charge's `id` or `transaction_id` (useful for refunds the service started itself, which have no `refund_id`). " +
      'A receipt exists once the bank has settled the refund: until then the answer is 409, retry later. A charge refunded more than once answers 409 with the `refund_id`s in `detail`: ask again by `refund_id`. ' +
      'Only charges received by PROVIDER_A or PROVIDER_B have receipts, and the bank must be enabled for your account. API keys without access to transactions get 403. The receipt of a payout sent back is at GET /v2/withdrawals/refund/receipt.',
    query: [
      { name: 'id', type: 'integer', description: 'The `id` of the refunded Pix charge (not of the refund). Send only one of the three parameters.' },
      { name: 'transaction_id', description: 'The `transaction_id` of the refunded Pix charge. Send only one of the three parameters.' },
      { name: 'refund_id', description: 'The `refund_id` you gave the refund. Send only one of the three parameters.', example: 'ref-example-0000' },
    ],
    ok: [200, 'RefundReceiptResponse'],
    errors: [
      invalid(Messages.receipts.identifierRequired),
      [400, { message: Messages.receipts.notSupported('PROVIDER_C') }],
      notFound(Messages.receipts.noRefund),
      [403, { message: Messages.auth.transactionsForbidden }],
      [409, { message: Messages.receipts.notAvailable }],
      [409, { message: Messages.receipts.ambiguous, detail: 'ref-0001,ref-0002' }],
      invalid(Messages.receipts.onlyOneIdentifier),
      [400, { message: Messages.receipts.belongsToPayout }],
      notFound(Messages.receipts.transactionNotFound),
      [502, { message: Messages.receipts.failed('PROVIDER_A'), detail: 'invalid_client' }],
    ],
  })
  @UseGuards(TransactionsGrantGuard)
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('receipts', Patterns.receipts.refundReceipt, tenantOf(request), request, reply);
  }
}

/** GET /v2/transactions/refunds: the refunds of Pix charges by period (as the recurrences'), served by payments-service. */
@MerchantRoutes('Refunds')
@Controller('v2/transactions/refunds')
export class RefundListRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'List refunds',
    description:
      'Lists the refunds of your Pix charges asked for from `start` to `end`, newest first, one page at a time (`pagination` says how many pages and refunds there are), whatever their status: ' +
      'yours and those the service started itself (no `refund_id`). A refund shows here as soon as it is answered. ' +
      'Payouts sent back by the receiving bank are not refunds of charges: they show on their payout (GET /v2/withdrawals).',
    query: periodPageQuery('Refunds'),
    ok: [200, 'RefundListResponse'],
    errors: [invalid(Messages.lists.periodRequired), invalid(Messages.lists.dateTimeInvalid('query.start'))],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.listRefunds, tenantOf(request), request, reply);
  }
}

/** Sandbox: a refund the service starts itself, and the bank liquidating one now. Sandbox listener only (404 on production). */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox')
export class SandboxRefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The service refunds a Pix charge by itself (no refund_id)',
    description:
      'Sandbox only: plays a refund the service starts by itself, as happens in production without a request of yours: a refund of a PAID Pix charge, whole or `amount`, with no `refund_id`. ' +
      "It is answered PROCESSING and the bank settles it like any other; find its receipt by the charge's `id` or `transaction_id`.",
    params: { id: ["The Pix charge's `id` (an integer).", EXAMPLE_NUMBER] },
    body: 'SandboxRefundRequest',
    bodyOptional: true,
    example: { amount: 1 },
    ok: [201, 'RefundResponse'],
    errors: [invalid(P.pathIdInvalid), invalid(F.fullyRefunded), notFound(P.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('transactions/:id/refund')
  refund(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxRefund, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'The bank settles a refund now',
    description:
      "Sandbox only: the bank settles a PROCESSING refund now: it becomes REFUNDED, with `refunded_at`, and its receipt becomes available. Without this call the sandbox bank settles a refund by itself 60 seconds after it (by the account's test clock too). " +
      'Settling a settled refund answers it as it is.',
    params: { id: ["The refund's `id` (an integer, not its `refund_id`).", EXAMPLE_NUMBER] },
    ok: [200, 'RefundResponse'],
    errors: [invalid(P.pathIdInvalid), notFound(F.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('refunds/:id/settle')
  settle(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxSettleRefund, tenantOf(request), request, reply);
  }
}
