import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** Cash-in Pix charges: POST /v2/pix and GET /v2/pix?id= or ?transaction_id= (platform.md §3), served by payments-service. */
@Controller('v2/pix')
export class PaymentsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's name (the Pix code) and cashin_provider (the charge's provider). */
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createPixCharge, tenantOf(request), request, reply, request.account);
  }

  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getPixCharge, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the sandbox payer pays a cash-in charge now. Registered on the sandbox listener only, so production answers 404. */
@Controller('v2/sandbox/pix/:id')
export class SandboxPaymentsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('pay')
  pay(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayPixCharge, tenantOf(request), request, reply);
  }
}
