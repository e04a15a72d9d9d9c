import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  DeliveriesRetriedResponse,
  DeliveryListResponse,
  DeliveryResponse,
  Patterns,
  reply,
  requiredReportDays,
  SEND_TEST_EVENT_FIELDS,
  SendTestEventRequest,
  ServiceReply,
  ServiceRequest,
  validateBody,
} from '@pixauto/contracts';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { Clock } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';
import {
  deliveryIdOf,
  DeliveryStore,
  insertDeliveries,
  parseDeliveriesQuery,
  parseDeliveryFilters,
  testNotification,
  WebhookDispatcher,
  WebhookSender,
} from '@pixauto/webhooks';

/** Deliveries a POST /v2/webhooks/deliveries/retry marks per statement. */
const RETRY_BATCH = 500;

/** The merchant's delivery log (docs/api/webhooks.md#the-delivery-log-and-resending): another tenant's delivery is not found, like an unknown one. */
@Controller()
export class DeliveriesController {
  constructor(
    private readonly store: DeliveryStore,
    private readonly dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
    private readonly sender: WebhookSender,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @MessagePattern(Patterns.webhooks.listDeliveries)
  async list(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const parsed = parseDeliveriesQuery(query ?? {});
    if (!parsed.ok) return refuse(parsed.refusal);
    return reply((await this.store.list(tenant, parsed.value)) satisfies DeliveryListResponse);
  }

  /** GET /v2/reports/daily-totals: the period's failed deliveries. */
  @MessagePattern(Patterns.webhooks.dailyTotals)
  async dailyTotals(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const days = requiredReportDays(query);
    if (!days.ok) return refuse(days.refusal);
    return reply(await this.store.dailyTotals(tenant, days.value));
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

  /** 202 with how many matched: each is claimed like a single retry, at the pace the dispatcher sends. */
  @MessagePattern(Patterns.webhooks.retryMatching)
  async retryMatching(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const filters = parseDeliveryFilters(query ?? {});
    if (!filters.ok) return refuse(filters.refusal);
    const queued = await this.store.requestRetryMatching(tenant, filters.value, RETRY_BATCH);
    return reply({ queued } satisfies DeliveriesRetriedResponse, 202);
  }

  /** 202 with the new delivery: recorded and sent at once, signed like every webhook; a refused URL records nothing. */
  @MessagePattern(Patterns.webhooks.sendTestEvent)
  async sendTestEvent(@Payload() { tenant, body }: ServiceRequest): Promise<ServiceReply> {
    const request = validateBody(SendTestEventRequest, body, SEND_TEST_EVENT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    const { event_type, url } = request.value;
    const refused = await this.sender.refusal(url, tenant.environment);
    if (refused !== undefined) return refuse(validation(Messages.webhooks.testUrlRefused(refused)));
    const notification = testNotification(deliveryIdOf(randomUUID()), tenant, event_type, url, this.clock.now(tenant));
    const created = await this.dataSource.transaction((db) => insertDeliveries(db, [notification], this.dispatcher.leaseUntil()));
    this.dispatcher.enqueue(created);
    const delivery = (await this.store.get(tenant, notification.id)) ?? refuse(notFound(Messages.webhooks.deliveryNotFound));
    return reply(delivery satisfies DeliveryResponse, 202);
  }
}
