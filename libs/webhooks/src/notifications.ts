import {
  ChargeEventTypes,
  ChargeRecordData,
  ChargeResponse,
  DueDateChargeChangedData,
  DueDateChargeEventTypes,
  dueDateChargeResponse,
  EventEnvelope,
  PayoutCreatedData,
  PayoutEventTypes,
  payoutResponse,
  PayoutStatusChangedData,
  PixChargeEventTypes,
  PixChargeRefundData,
  PixChargeDisputeData,
  disputeResponse,
  refundResponse,
  PixChargePaidData,
  pixChargeRecordOf,
  pixChargeResponse,
  RecurrenceEventTypes,
  RecurrenceRecordData,
  RecurrenceResponse,
  Tenant,
  WebhookPayload,
  WebhookResourceType,
} from '@pixauto/contracts';
import { brasiliaDate } from '@pixauto/pix';
import { isChargeEvent, upcastRecurrenceStreamEvent } from '@pixauto/recurrences';

// Which domain events reach a merchant's webhook, where, and with what body (docs/api/webhooks.md#the-events).
// Pure: every event carries its record, so each is read on its own.

/** What an event tells the merchant: its webhook body and the resource it is about, whether or not that has a webhook URL. */
export interface WebhookEvent {
  /** The `webhook-id` of every attempt: derived from the event, so a redelivered event makes no second delivery. */
  id: string;
  tenant: Tenant;
  event_type: string;
  resource_type: WebhookResourceType;
  resource_id: string;
  /**
   * Deliveries of one group go out in order; a change of the recurrence's webhook ends the pending ones of its
   * group. A recurrence and its cycle charges are one group; the activation, which keeps its URL (4.4), is its own.
   */
  group_id: string;
  /** The event's version in its stream: the order within the group. */
  sequence: number;
  /** The resource's webhook URL in effect for the event; null: none. */
  url: string | null;
  payload: WebhookPayload;
}

/**
 * One request to make, at least once, until a 2xx: a delivery, the event of a resource with a webhook URL, or of a
 * webhook endpoint that takes it (`endpoint_id`).
 */
export type Notification = WebhookEvent & { url: string; endpoint_id?: string };

/** The event's delivery, if its resource has a webhook URL. */
export const notificationOf = (event: WebhookEvent | undefined): Notification | undefined => (event?.url ? (event as Notification) : undefined);

export const deliveryIdOf = (eventId: string): string => `msg_${eventId.replace(/-/g, '')}`;

const tenantOf = (event: EventEnvelope): Tenant => ({ accountId: event.tenant.account_id, environment: event.tenant.environment });

/** A cleared (null) or replaced webhook: the pending deliveries of its group to another URL end (4.4). */
export interface WebhookChange {
  group_id: string;
  url: string | null;
  /** The version that changed it: deliveries of earlier events of the group are the ones it ends. */
  version: number;
}

/** What a recurrence-stream event brings: its webhook event, and the webhook it changed. */
export interface RecurrenceStep {
  event: WebhookEvent;
  webhookChange: WebhookChange | undefined;
}

/**
 * A recurrence-stream event, read from the record it carries (version 1 through the upcaster): undefined for a
 * version 1 event that carried no record, which makes no delivery.
 */
export function recurrenceStreamStep(received: EventEnvelope): RecurrenceStep | undefined {
  const event = upcastRecurrenceStreamEvent(received);
  if (!event) return undefined;
  const base = { id: deliveryIdOf(event.event_id), tenant: tenantOf(event), event_type: event.type, sequence: event.version };
  const payloadOf = (data: RecurrenceResponse | ChargeResponse): WebhookPayload => ({
    type: event.type,
    environment: event.tenant.environment,
    timestamp: event.occurred_at,
    data,
  });
  if (isChargeEvent(event.type)) {
    // The charge event names the URL in effect for it (the activation's own, or the recurrence's current one).
    const { charge, webhook, type } = event.data as unknown as ChargeRecordData & { webhook: string | null; type: string };
    const group = type === 'activation' ? `recurrence:${charge.recurrence_id}:activation` : `recurrence:${charge.recurrence_id}`;
    return {
      event: { ...base, resource_type: 'charge', resource_id: charge.charge_id, group_id: group, url: webhook, payload: payloadOf(charge) },
      webhookChange: undefined,
    };
  }
  const { recurrence } = event.data as unknown as RecurrenceRecordData;
  const group_id = `recurrence:${recurrence.recurrence_id}`;
  const changed = event.type === RecurrenceEventTypes.updated && (event.data as { webhook?: string | null }).webhook !== undefined;
  const webhookChange = changed ? { group_id, url: recurrence.webhook, version: event.version } : undefined;
  return {
    event: { ...base, resource_type: 'recurrence', resource_id: recurrence.recurrence_id, group_id, url: recurrence.webhook, payload: payloadOf(recurrence) },
    webhookChange,
  };
}

/** Cash-in and payout events carry their whole record, webhook included: no fold needed. */
export function recordWebhookEvent(event: EventEnvelope): WebhookEvent | undefined {
  const base = { id: deliveryIdOf(event.event_id), tenant: tenantOf(event), event_type: event.type, sequence: event.version };
  if ((Object.values(PixChargeEventTypes) as string[]).includes(event.type)) {
    const data = event.data as PixChargePaidData | PixChargeRefundData | PixChargeDisputeData;
    const charge = pixChargeRecordOf(data);
    const resourceId = String(charge.id);
    return {
      ...base,
      resource_type: 'pix_charge',
      resource_id: resourceId,
      group_id: `pix_charge:${resourceId}`,
      url: charge.webhook,
      // A refund or dispute event shows the refund or dispute (its charge named in `transaction`); the others, the charge.
      payload: {
        type: event.type,
        environment: event.tenant.environment,
        timestamp: event.occurred_at,
        data: 'refund' in data ? refundResponse(data.refund, charge) : 'dispute' in data ? disputeResponse(data.dispute, charge) : pixChargeResponse(charge),
      },
    };
  }
  if ((DUE_DATE_CHARGE_WEBHOOK_TYPES as string[]).includes(event.type)) {
    const { charge } = event.data as DueDateChargeChangedData;
    const resourceId = String(charge.id);
    return {
      ...base,
      resource_type: 'due_date_charge',
      resource_id: resourceId,
      group_id: `due_date_charge:${resourceId}`,
      url: charge.webhook,
      payload: {
        type: event.type,
        environment: event.tenant.environment,
        timestamp: event.occurred_at,
        data: dueDateChargeResponse(charge, brasiliaDate(new Date(event.occurred_at))),
      },
    };
  }
  if ((Object.values(PayoutEventTypes) as string[]).includes(event.type)) {
    const { payout } = event.data as PayoutCreatedData | PayoutStatusChangedData;
    const resourceId = String(payout.id);
    return {
      ...base,
      resource_type: 'payout',
      resource_id: resourceId,
      group_id: `payout:${resourceId}`,
      url: payout.webhook,
      payload: { type: event.type, environment: event.tenant.environment, timestamp: event.occurred_at, data: payoutResponse(payout, 'by_id') },
    };
  }
  return undefined;
}

export const RECURRENCE_STREAM_EVENT_TYPES: readonly string[] = [...Object.values(RecurrenceEventTypes), ...Object.values(ChargeEventTypes)];
/** A due-date charge's events a webhook receives: its creation and changes are answers to the merchant's own requests. */
const DUE_DATE_CHARGE_WEBHOOK_TYPES: string[] = [DueDateChargeEventTypes.paid, DueDateChargeEventTypes.expired, DueDateChargeEventTypes.cancelled];
export const RECORD_EVENT_TYPES: readonly string[] = [
  ...Object.values(PixChargeEventTypes),
  ...DUE_DATE_CHARGE_WEBHOOK_TYPES,
  ...Object.values(PayoutEventTypes),
];
