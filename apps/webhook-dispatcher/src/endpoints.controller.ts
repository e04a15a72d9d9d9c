import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CREATE_WEBHOOK_ENDPOINT_FIELDS,
  CreateWebhookEndpointRequest,
  DEFAULT_ENDPOINT_OVERLAP_HOURS,
  DeliveryResponse,
  MAX_WEBHOOK_ENDPOINTS,
  Patterns,
  reply,
  ROTATE_ENDPOINT_SECRET_FIELDS,
  RotateEndpointSecretRequest,
  SEND_ENDPOINT_TEST_EVENT_FIELDS,
  SendEndpointTestEventRequest,
  ServiceReply,
  ServiceRequest,
  UPDATE_WEBHOOK_ENDPOINT_FIELDS,
  UpdateWebhookEndpointRequest,
  validateBody,
  WEBHOOK_EVENT_TYPES,
  WebhookEndpointListResponse,
} from '@pixauto/contracts';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { Clock } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';
import {
  deliveryIdOf,
  DeliveryStore,
  eventTypesOf,
  insertDeliveries,
  testNotification,
  WebhookDispatcher,
  WebhookEndpointStore,
  WebhookSender,
} from '@pixauto/webhooks';

const W = Messages.webhooks;
const endpointNotFound = () => refuse(notFound(W.endpointNotFound));

/**
 * An account's webhook endpoints in one environment (docs/api/webhooks.md#webhook-endpoints): another tenant's
 * endpoint is not found, like an unknown one. A refused request writes nothing.
 */
@Controller()
export class EndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointStore,
    private readonly store: DeliveryStore,
    private readonly dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
    private readonly sender: WebhookSender,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 201 with its secret; the 17th of a tenant is 422, in the error shape. */
  @MessagePattern(Patterns.webhooks.createEndpoint)
  async create(@Payload() { tenant, body }: ServiceRequest): Promise<ServiceReply> {
    const request = validateBody(CreateWebhookEndpointRequest, body, CREATE_WEBHOOK_ENDPOINT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    const { url, event_types, description, enabled } = request.value;
    const created = await this.endpoints.create(
      tenant,
      { url, event_types: eventTypesOf(event_types), description: description ?? null, enabled: enabled ?? true },
      this.clock.now(tenant),
    );
    if (!created) return reply({ type: 'ValidationError', message: W.endpointLimit(MAX_WEBHOOK_ENDPOINTS) }, 422);
    return reply(created, 201);
  }

  @MessagePattern(Patterns.webhooks.listEndpoints)
  async list(@Payload() { tenant }: ServiceRequest): Promise<ServiceReply> {
    return reply({ endpoints: await this.endpoints.list(tenant) } satisfies WebhookEndpointListResponse);
  }

  @MessagePattern(Patterns.webhooks.getEndpoint)
  async get(@Payload() { tenant, params }: ServiceRequest): Promise<ServiceReply> {
    return reply((await this.endpoints.get(tenant, params?.endpoint_id ?? '')) ?? endpointNotFound());
  }

  @MessagePattern(Patterns.webhooks.updateEndpoint)
  async update(@Payload() { tenant, params, body }: ServiceRequest): Promise<ServiceReply> {
    if (!(await this.endpoints.get(tenant, params?.endpoint_id ?? ''))) return endpointNotFound();
    const request = validateBody(UpdateWebhookEndpointRequest, body, UPDATE_WEBHOOK_ENDPOINT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    const change = request.value;
    if (Object.keys(body as object).length === 0) return refuse(validation(W.endpointNothingToChange));
    const updated = await this.endpoints.update(
      tenant,
      params?.endpoint_id ?? '',
      {
        ...(change.url !== undefined && { url: change.url }),
        ...(change.event_types !== undefined && { event_types: eventTypesOf(change.event_types) }),
        ...((body as Record<string, unknown>).description !== undefined && { description: change.description ?? null }),
        ...(change.enabled !== undefined && { enabled: change.enabled }),
      },
      this.clock.now(tenant),
    );
    return reply(updated ?? endpointNotFound());
  }

  /** 204; its pending deliveries are cancelled. */
  @MessagePattern(Patterns.webhooks.deleteEndpoint)
  async delete(@Payload() { tenant, params }: ServiceRequest): Promise<ServiceReply> {
    if (!(await this.endpoints.delete(tenant, params?.endpoint_id ?? ''))) return endpointNotFound();
    return { status: 204 };
  }

  @MessagePattern(Patterns.webhooks.revealEndpointSecret)
  async revealSecret(@Payload() { tenant, params }: ServiceRequest): Promise<ServiceReply> {
    return reply((await this.endpoints.secret(tenant, params?.endpoint_id ?? '', this.clock.now())) ?? endpointNotFound());
  }

  @MessagePattern(Patterns.webhooks.rotateEndpointSecret)
  async rotateSecret(@Payload() { tenant, params, body }: ServiceRequest): Promise<ServiceReply> {
    if (!(await this.endpoints.get(tenant, params?.endpoint_id ?? ''))) return endpointNotFound();
    const request = validateBody(RotateEndpointSecretRequest, body ?? {}, ROTATE_ENDPOINT_SECRET_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    const hours = request.value.previous_secret_expires_in_hours ?? DEFAULT_ENDPOINT_OVERLAP_HOURS;
    const rotated = await this.endpoints.rotate(tenant, params?.endpoint_id ?? '', hours, this.clock.now(), this.clock.now(tenant));
    return reply(rotated ?? endpointNotFound());
  }

  /** 202 with the new delivery, as POST /v2/webhooks/test-events answers: sent to the endpoint, signed with its secret. */
  @MessagePattern(Patterns.webhooks.sendEndpointTestEvent)
  async sendTestEvent(@Payload() { tenant, params, body }: ServiceRequest): Promise<ServiceReply> {
    const endpoint = (await this.endpoints.get(tenant, params?.endpoint_id ?? '')) ?? endpointNotFound();
    const request = validateBody(SendEndpointTestEventRequest, body ?? {}, SEND_ENDPOINT_TEST_EVENT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    if (!endpoint.enabled) return refuse(validation(W.endpointDisabled));
    const type = request.value.event_type ?? endpoint.event_types[0] ?? WEBHOOK_EVENT_TYPES[0];
    const refused = await this.sender.refusal(endpoint.url, tenant.environment);
    if (refused !== undefined) return refuse(validation(W.endpointUrlRefused(refused)));
    const notification = {
      ...testNotification(deliveryIdOf(randomUUID()), tenant, type, endpoint.url, this.clock.now(tenant)),
      endpoint_id: endpoint.endpoint_id,
    };
    const created = await this.dataSource.transaction((db) => insertDeliveries(db, [notification], this.dispatcher.leaseUntil()));
    this.dispatcher.enqueue(created);
    const delivery = (await this.store.get(tenant, notification.id)) ?? refuse(notFound(W.deliveryNotFound));
    return reply(delivery satisfies DeliveryResponse, 202);
  }
}
