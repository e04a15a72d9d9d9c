import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { DELIVERY_FILTERS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

/** The merchant's webhook delivery log (platform.md §5), served by the webhook-dispatcher. Read-only keys read, not retry. */
@MerchantRoutes('Webhooks')
@Controller('v2/webhooks/deliveries')
export class WebhooksRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Webhook deliveries',
    description: 'platform.md §5: newest first.',
    query: DELIVERY_FILTERS,
    ok: [200, 'DeliveryListResponse'],
    errors: [invalid(Messages.webhooks.statusInvalid), invalid(Messages.webhooks.periodOrder)],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.listDeliveries, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'A webhook delivery and its attempts',
    params: { id: 'The delivery id (the webhook-id header)' },
    ok: [200, 'DeliveryResponse'],
    errors: [notFound(Messages.webhooks.deliveryNotFound)],
  })
  @Get(':id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.getDelivery, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Retry a webhook delivery now',
    description: 'One attempt now, whatever its state.',
    params: { id: 'The delivery id' },
    ok: [202, 'DeliveryResponse'],
    errors: [notFound(Messages.webhooks.deliveryNotFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post(':id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, tenantOf(request), request, reply);
  }
}
