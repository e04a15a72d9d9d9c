import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DeliveryListResponse, DeliveryResponse, Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { DeliveryStore, parseDeliveriesQuery } from '@pixauto/webhooks';

/** The merchant's delivery log (platform.md §5): another tenant's delivery is not found, like an unknown one. */
@Controller()
export class DeliveriesController {
  constructor(private readonly store: DeliveryStore) {}

  @MessagePattern(Patterns.webhooks.listDeliveries)
  async list(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const parsed = parseDeliveriesQuery(query ?? {});
    if (!parsed.ok) return refuse(parsed.refusal);
    return reply((await this.store.list(tenant, parsed.value)) satisfies DeliveryListResponse);
  }

  @MessagePattern(Patterns.webhooks.getDelivery)
  async get(@Payload() { tenant, params }: ServiceRequest): Promise<ServiceReply> {
    const found = (await this.store.get(tenant, params?.id ?? '')) ?? refuse(notFound(Messages.webhooks.deliveryNotFound));
    return reply(found satisfies DeliveryResponse);
  }

  /** 202: the attempt is made within a second by the dispatcher; GET shows it in `attempts`. */
  @MessagePattern(Patterns.webhooks.retryDelivery)
  async retry(@Payload() { tenant, params }: ServiceRequest): Promise<ServiceReply> {
    const found = (await this.store.requestRetry(tenant, params?.id ?? '')) ?? refuse(notFound(Messages.webhooks.deliveryNotFound));
    return reply(found, 202);
  }
}
