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
    description:
      'Lists the webhook deliveries of your account in this environment, newest first, one page at a time, filtered by any of the parameters below. ' +
      'A delivery is one event sent to one URL: attempted until your endpoint answers 2xx within 15 seconds, retried 10 times in all over about 3 days, then `failed`. Use it to find what your endpoint missed.',
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
    description:
      'Returns one delivery with the body it sends (`payload`, the same bytes on every attempt) and every attempt made: when, to which URL, what your endpoint answered or why it failed, and how long it took.',
    params: { id: "The delivery's `id` (`msg_...`), also the `webhook-id` header of its requests." },
    ok: [200, 'DeliveryResponse'],
    errors: [notFound(Messages.webhooks.deliveryNotFound)],
  })
  @Get(':id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.getDelivery, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Retry a webhook delivery now',
    description:
      "Makes one more attempt within a second, whatever the delivery's status (a failed or cancelled one included), outside its schedule and without using up one of its 10 attempts; answered 202 at once. " +
      'If it succeeds the delivery becomes `delivered`; if not, it keeps its status and schedule. GET the delivery to see the attempt. Read-only keys get 403.',
    params: { id: "The delivery's `id` (`msg_...`)." },
    ok: [202, 'DeliveryResponse'],
    errors: [notFound(Messages.webhooks.deliveryNotFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post(':id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, tenantOf(request), request, reply);
  }
}
