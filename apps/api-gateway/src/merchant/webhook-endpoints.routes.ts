import { Controller, Delete, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MAX_WEBHOOK_ENDPOINTS, Patterns, WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const W = Messages.webhooks;
const ENDPOINT_ID: Record<string, string> = { endpoint_id: "The endpoint's `endpoint_id` (a UUID)." };
const NOT_FOUND = notFound(W.endpointNotFound);
const FIELD_REFUSALS = [
  invalid(W.endpointUrlInvalid),
  invalid(W.endpointEventTypeInvalid(WEBHOOK_EVENT_TYPES)),
  invalid(W.endpointDescriptionInvalid),
  invalid(W.endpointEnabledInvalid),
];

/**
 * The account's webhook endpoints in this environment, served by the webhook-dispatcher, which delivers to them.
 * Read-only keys list and read them; every change, and the secret (even read), is refused to them.
 */
@MerchantRoutes('Webhooks')
@Controller('v2/webhooks/endpoints')
export class WebhookEndpointsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Create a webhook endpoint',
    description:
      'Adds a URL that receives every event of your account in this environment of the types it takes (all of them when `event_types` is absent or empty), beside the `webhook` of each resource, which keeps receiving its own events. ' +
      "Each event is a delivery of its own to each endpoint: the same body as a resource's webhook gets, signed with the endpoint's own secret (answered here once, and by GET .../secret), retried on the same schedule and listed in the delivery log with the endpoint's `endpoint_id`. " +
      `At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per environment; a sandbox key's endpoints receive only sandbox events. Read-only keys get 403.`,
    body: 'CreateWebhookEndpointRequest',
    example: { url: 'http://127.0.0.1:8080/hooks', event_types: ['pix_charge.paid', 'payout.status_changed'], description: 'Accounting' },
    ok: [201, 'WebhookEndpointCreatedResponse'],
    errors: [...FIELD_REFUSALS, [422, { type: 'ValidationError', message: W.endpointLimit(MAX_WEBHOOK_ENDPOINTS) }], ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.createEndpoint, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Webhook endpoints',
    description: `Lists your account's webhook endpoints in this environment, oldest first (at most ${MAX_WEBHOOK_ENDPOINTS}, one page), without their secrets.`,
    ok: [200, 'WebhookEndpointListResponse'],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.listEndpoints, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'A webhook endpoint',
    description: 'Returns one of your webhook endpoints in this environment, without its secret.',
    params: ENDPOINT_ID,
    ok: [200, 'WebhookEndpointResponse'],
    errors: [NOT_FOUND],
  })
  @Get(':endpoint_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.getEndpoint, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Change a webhook endpoint',
    description:
      'Changes the fields given, at least one; the others stay. A new `url` is where the endpoint receives from then on, its pending deliveries included; new `event_types` apply to the events that happen from then on. ' +
      '`enabled: false` stops new deliveries to it and cancels its pending ones (they stay in the delivery log, and `POST /v2/webhooks/deliveries/retry?endpoint_id=...&status=cancelled` resends them); `enabled: true` makes it receive again. Read-only keys get 403.',
    params: ENDPOINT_ID,
    body: 'UpdateWebhookEndpointRequest',
    example: { enabled: false },
    ok: [200, 'WebhookEndpointResponse'],
    errors: [...FIELD_REFUSALS, invalid(W.endpointNothingToChange), NOT_FOUND, ...WRITE_REFUSALS],
  })
  @Patch(':endpoint_id')
  update(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.updateEndpoint, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Delete a webhook endpoint',
    description:
      'Deletes the endpoint: it receives nothing more, and its pending deliveries are cancelled (`the webhook endpoint was deleted`). The delivery log keeps every delivery it had. Read-only keys get 403.',
    params: ENDPOINT_ID,
    ok: [204],
    errors: [NOT_FOUND, ...WRITE_REFUSALS],
  })
  @Delete(':endpoint_id')
  delete(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.deleteEndpoint, tenantOf(request), request, reply);
  }

  @Route({
    summary: "A webhook endpoint's signing secret",
    description:
      "Shows the secret that signs every request to the endpoint, and until when a rotation's previous secret signs beside it. Read-only keys get 403: a secret is not a read-only key's to see.",
    params: ENDPOINT_ID,
    ok: [200, 'WebhookEndpointSecretResponse'],
    errors: [NOT_FOUND, ...WRITE_REFUSALS],
  })
  @Get(':endpoint_id/secret')
  revealSecret(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.grant.readOnly) return refuse({ kind: 'authentication', status: 403, code: 2, message: Messages.auth.apiKeyReadOnly });
    return this.upstreams.relay('webhooks', Patterns.webhooks.revealEndpointSecret, tenantOf(request), request, reply);
  }

  @Route({
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      'Issues a new secret for the endpoint and answers it. For `previous_secret_expires_in_hours` (24 by default, 0 to 168) every request to the endpoint carries two signatures in `webhook-signature`, one per secret, so your receiver verifies with either while you switch; then only the new one. ' +
      "It changes no other endpoint's secret, nor your account's. Read-only keys get 403.",
    params: ENDPOINT_ID,
    body: 'RotateEndpointSecretRequest',
    bodyOptional: true,
    example: { previous_secret_expires_in_hours: 24 },
    ok: [200, 'WebhookEndpointSecretResponse'],
    errors: [invalid(W.endpointOverlapInvalid), NOT_FOUND, ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post(':endpoint_id/secret/rotate')
  rotateSecret(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.rotateEndpointSecret, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Send a test event to a webhook endpoint',
    description:
      "Sends a sample event to the endpoint, signed with its secret, as `POST /v2/webhooks/test-events` does to a URL: answered 202 with the delivery, attempted at once, retried if it fails, and listed in the delivery log with the endpoint's `endpoint_id`. " +
      "Without `event_type`, the endpoint's first event type (`recurrence.created` for one that takes them all). A URL the platform may not call, or a disabled endpoint, is refused here, and nothing is recorded. Read-only keys get 403.",
    params: ENDPOINT_ID,
    body: 'SendEndpointTestEventRequest',
    bodyOptional: true,
    example: { event_type: 'pix_charge.paid' },
    ok: [202, 'DeliveryResponse'],
    errors: [
      invalid(W.testEventTypeInvalid(WEBHOOK_EVENT_TYPES)),
      invalid(W.endpointUrlRefused('the webhook URL must use https (got http)')),
      invalid(W.endpointDisabled),
      NOT_FOUND,
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post(':endpoint_id/test')
  sendTestEvent(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.sendEndpointTestEvent, tenantOf(request), request, reply);
  }
}
