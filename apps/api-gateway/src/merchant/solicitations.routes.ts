import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** service-api.md 4.5 to 4.7, served by solicitation-service. */
@Controller('v2/automatic-pix/solicitations')
export class SolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.create, tenantOf(request), request, reply);
  }

  @Get(':solicitation_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.get, tenantOf(request), request, reply);
  }

  @Patch(':solicitation_id')
  cancel(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.cancel, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the payer answers the alert. Registered on the sandbox listener only. */
@Controller('v2/sandbox/solicitations/:solicitation_id')
export class SandboxSolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post('answer')
  answer(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.sandboxAnswer, tenantOf(request), request, reply);
  }
}
