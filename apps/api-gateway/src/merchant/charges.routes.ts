import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** platform.md §3: the charges of a recurrence, served by recurrence-service. */
@Controller('v2/automatic-pix')
export class ChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Get('recurrences/:recurrence_id/charges')
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.list, tenantOf(request), request, reply);
  }

  @Get('charges/:charge_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.get, tenantOf(request), request, reply);
  }

  @Patch('charges/:charge_id')
  cancel(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.cancel, tenantOf(request), request, reply);
  }

  @Post('charges/:charge_id/reschedule')
  reschedule(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.reschedule, tenantOf(request), request, reply);
  }

  @Post('charges/:charge_id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.retry, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the payer's bank debits now, or refuses now. Sandbox listener only. */
@Controller('v2/sandbox/charges/:charge_id')
export class SandboxChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('pay')
  pay(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.sandboxPay, tenantOf(request), request, reply);
  }

  @Post('fail')
  fail(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.sandboxFail, tenantOf(request), request, reply);
  }
}
