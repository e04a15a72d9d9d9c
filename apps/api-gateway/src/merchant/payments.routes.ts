import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** GET /v2/pix?id= or ?transaction_id= (platform.md §3), served by payments-service. */
@Controller('v2/pix')
export class PaymentsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getPixCharge, tenantOf(request), request, reply);
  }
}
