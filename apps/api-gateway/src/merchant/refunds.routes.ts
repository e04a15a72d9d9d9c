import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/**
 * POST /v2/transactions/refund (platform.md §3): a refund of a paid cash-in charge, served by payments-service; and its
 * receipt, GET /v2/transactions/refund/receipt (service-api.md 4.12), fetched live from the bank by receipt-service.
 */
@Controller('v2/transactions/refund')
export class RefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createRefund, tenantOf(request), request, reply);
  }

  /** A key with `transactions: false` is refused before anything is read (service-api.md 5, 7.4). */
  @Get('receipt')
  receipt(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.grant.transactions) return refuse({ kind: 'forbidden', message: Messages.auth.transactionsForbidden });
    return this.upstreams.relay('receipts', Patterns.receipts.refundReceipt, tenantOf(request), request, reply);
  }
}

/** platform.md §4: a refund the service starts itself, and the bank liquidating one now. Sandbox listener only (404 on production). */
@Controller('v2/sandbox')
export class SandboxRefundsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('transactions/:id/refund')
  refund(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxRefund, tenantOf(request), request, reply);
  }

  @Post('refunds/:id/settle')
  settle(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxSettleRefund, tenantOf(request), request, reply);
  }
}
