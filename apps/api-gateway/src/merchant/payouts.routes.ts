import { Controller, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** Payout creation (platform.md §3), served by payments-service. The account's provider processes it. */
@Controller('v2/payout')
export class PayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('pix')
  toPixKey(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createPixPayout, tenantOf(request), request, reply, request.account);
  }

  @Post()
  toAccount(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createAccountPayout, tenantOf(request), request, reply, request.account);
  }
}

/** platform.md §4: the bank behind the sandbox moves a payout now, or sends a completed one back. Sandbox listener only. */
@Controller('v2/sandbox/payouts/:id')
export class SandboxPayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('status')
  status(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayoutStatus, tenantOf(request), request, reply);
  }

  /** The receiving bank sends the completed payout back (a refund of the payout), whole or `{amount, refund_id}`. */
  @Post('return')
  return(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayoutReturn, tenantOf(request), request, reply);
  }
}
