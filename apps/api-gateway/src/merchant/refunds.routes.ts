import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { BANK_REFUSALS, EXAMPLE_NUMBER, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const P = Messages.payments;
const F = Messages.refunds;

/**
 * POST /v2/transactions/refund (platform.md §3): a refund of a paid cash-in charge, served by payments-service; and its
 * receipt, GET /v2/transactions/refund/receipt (service-api.md 4.12), fetched live from the bank by receipt-service.
 */
@MerchantRoutes('Refunds')
@Controller('v2/transactions/refund')
export class RefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Refund a paid Pix charge',
    description: 'platform.md §3: by exactly one of id or transaction_id; absent amount refunds what is left.',
    body: 'CreateRefundRequest',
    example: { transaction_id: 'pix-example-0001', refund_id: 'ref-example-0001', amount: 1 },
    ok: [201, 'RefundResponse'],
    errors: [invalid(F.identifierRequired), invalid(F.refundIdTaken), invalid(F.notPaid('PENDING')), notFound(F.transactionNotFound), [403, { message: Messages.auth.transactionsForbidden }], ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createRefund, tenantOf(request), request, reply);
  }

  /** A key with `transactions: false` is refused before anything is read (service-api.md 5, 7.4). */
  @Route({
    summary: 'Refund receipt',
    description: 'service-api.md 4.12 and 7.4: exactly one of id, transaction_id or refund_id; fetched live from the bank.',
    query: [
      { name: 'id', type: 'integer', description: 'Internal id of the refunded charge' },
      { name: 'transaction_id', description: "The refunded charge's transaction_id" },
      { name: 'refund_id', example: 'ref-example-0000' },
    ],
    ok: [200, 'RefundReceiptResponse'],
    errors: [invalid(Messages.receipts.identifierRequired), [400, { message: Messages.receipts.notSupported('PROVIDER_C') }], notFound(Messages.receipts.noRefund), [403, { message: Messages.auth.transactionsForbidden }], [409, { message: Messages.receipts.notAvailable }], [409, { message: Messages.receipts.ambiguous, detail: 'ref-0001,ref-0002' }], invalid(Messages.receipts.onlyOneIdentifier), [400, { message: Messages.receipts.belongsToPayout }], notFound(Messages.receipts.transactionNotFound), [502, { message: Messages.receipts.failed('PROVIDER_A'), detail: 'invalid_client' }]],
  })
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.refundReceipt, tenantOf(request), request, reply);
  }
}

/** platform.md §4: a refund the service starts itself, and the bank liquidating one now. Sandbox listener only (404 on production). */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox')
export class SandboxRefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The service refunds a Pix charge by itself (no refund_id)',
    params: { id: ['The Pix charge id (integer)', EXAMPLE_NUMBER] },
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
    summary: "The bank issues the refund's provider identifier now",
    params: { id: ['The refund id (integer)', EXAMPLE_NUMBER] },
    ok: [200, 'RefundResponse'],
    errors: [invalid(P.pathIdInvalid), notFound(F.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('refunds/:id/settle')
  settle(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxSettleRefund, tenantOf(request), request, reply);
  }
}
