import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** service-api.md 4.1 to 4.4, served by recurrence-service. */
@Controller('v2/automatic-pix/recurrences')
export class RecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's wallet (7.3) and name (the Pix code). */
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.create, tenantOf(request), request, reply, request.account);
  }

  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.list, tenantOf(request), request, reply);
  }

  @Get(':recurrence_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.get, tenantOf(request), request, reply);
  }

  @Patch(':recurrence_id')
  update(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.update, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the sandbox payer. Registered on the sandbox listener only, so production answers 404. */
@Controller('v2/sandbox/recurrences/:recurrence_id')
export class SandboxRecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('authorize')
  authorize(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.sandboxAuthorize, tenantOf(request), request, reply);
  }

  @Post('reject')
  reject(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.sandboxReject, tenantOf(request), request, reply);
  }
}
