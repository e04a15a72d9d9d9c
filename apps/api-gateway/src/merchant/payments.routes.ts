import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AccountProfiles } from '@pixauto/accounts';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** Cash-in Pix charges: POST /v2/pix and GET /v2/pix?id= or ?transaction_id= (platform.md §3), served by payments-service. */
@Controller('v2/pix')
export class PaymentsRoutes {
  constructor(private readonly upstreams: Upstreams, private readonly profiles: AccountProfiles) {}

  /** Creation needs the account's name (the Pix code) and cashin_provider (the charge's provider). */
  @Post()
  async create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    const account = await this.profiles.get(request.grant.accountId);
    return this.upstreams.relay('payments', Patterns.payments.createPixCharge, tenantOf(request), request, reply, account);
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
