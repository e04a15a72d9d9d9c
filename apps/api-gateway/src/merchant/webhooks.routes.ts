import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** The merchant's webhook delivery log (platform.md §5), served by the webhook-dispatcher. Read-only keys read, not retry. */
@Controller('v2/webhooks/deliveries')
export class WebhooksRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.listDeliveries, tenantOf(request), request, reply);
  }

  @Get(':id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.getDelivery, tenantOf(request), request, reply);
  }

  @Post(':id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, tenantOf(request), request, reply);
  }
}
