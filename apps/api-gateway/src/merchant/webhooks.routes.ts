import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns, WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { DELIVERY_FILTERS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

/** The merchant's webhook delivery log and test events, served by the webhook-dispatcher. Read-only keys read, not write. */
@MerchantRoutes('Webhooks')
@Controller('v2/webhooks')
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
  @Get('deliveries')
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
  @Get('deliveries/:id')
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
  @Post('deliveries/:id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Retry every webhook delivery the filters match',
    description:
      'Asks one more attempt of every delivery of your account in this environment that the filters match (the same filters as the list, every page of it; without any, every delivery), as `POST /v2/webhooks/deliveries/{id}/retry` does for one: ' +
      'outside its schedule, without using up one of its 10 attempts, whatever its status. Answered 202 with how many matched; the attempts go out within seconds, a few hundred at a time. ' +
      'A repeat before they are made gives each one attempt still. Use `status=failed` to resend what your endpoint missed once it is fixed. Read-only keys get 403.',
    query: DELIVERY_FILTERS.filter((q) => q.name !== 'page' && q.name !== 'page_size'),
    ok: [202, 'DeliveriesRetriedResponse'],
    errors: [invalid(Messages.webhooks.statusInvalid), invalid(Messages.webhooks.periodOrder), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('deliveries/retry')
  retryMatching(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryMatching, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Send a test event',
    description:
      'Sends a sample event of any type to the URL you give, signed with your webhook secret like every webhook, so you can check your endpoint and its signature check. ' +
      "Its `data` has the shape of the type's real `data` (the **Webhook events** section), about a resource that does not exist (its ids say `test`). " +
      'It is a delivery like the others: answered 202 with it, attempted at once, retried on the same schedule if it fails, and listed in the delivery log. ' +
      'The URL is held to the rules of every webhook: one the platform may not call is refused here, and nothing is recorded. Read-only keys get 403.',
    body: 'SendTestEventRequest',
    example: { event_type: 'payout.status_changed', url: 'http://127.0.0.1:8080/hook' },
    ok: [202, 'DeliveryResponse'],
    errors: [
      invalid(Messages.webhooks.testEventTypeInvalid(WEBHOOK_EVENT_TYPES)),
      invalid(Messages.webhooks.testUrlInvalid),
      invalid(Messages.webhooks.testUrlRefused('the webhook URL must use https (got http)')),
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post('test-events')
  sendTestEvent(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.sendTestEvent, tenantOf(request), request, reply);
  }
}
