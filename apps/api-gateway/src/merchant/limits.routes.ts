import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** service-api.md 4.13 and 4.14, served by limits-service. */
@Controller('v2/limits')
export class LimitsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Post()
  set(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.set, tenantOf(request), request, reply);
  }

  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.get, tenantOf(request), request, reply);
  }
}
