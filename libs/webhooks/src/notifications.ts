import {
  ChargeEventTypes,
  ChargeResponse,
  EventEnvelope,
  PayoutCreatedData,
  PayoutEventTypes,
  payoutResponse,
  PayoutStatusChangedData,
  PixChargeEventTypes,
  PixChargeRefundData,
  refundResponse,
  PixChargePaidData,
  pixChargeRecordOf,
  pixChargeResponse,
  RecurrenceEventTypes,
  RecurrenceResponse,
  Tenant,
  WebhookPayload,
  WebhookResourceType,
} from '@pixauto/contracts';
import { centavosToReais } from '@pixauto/pix';
import { pixCopyPasteOf, recurrence, Recurrence, RecurrenceEvent, RecurrenceState } from '@pixauto/recurrences';

// Which domain events reach a merchant's webhook, where, and with what body (docs/api/webhooks.md#the-events).
// Pure: the dispatcher feeds it the events of a stream in order, with the stream's folded state.

/** One request to make, at least once, until a 2xx: a delivery. */
export interface Notification {
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
  url: string;
  payload: WebhookPayload;
}

/** What the dispatcher keeps per recurrence stream: the recurrence's fold, and when each charge was created (for `created_at`). */
export interface RecurrenceFold {
  recurrence: RecurrenceState;
  charge_created_at: Record<string, string>;
}

export const INITIAL_RECURRENCE_FOLD: RecurrenceFold = { recurrence: recurrence.initialState, charge_created_at: {} };

export const deliveryIdOf = (eventId: string): string => `msg_${eventId.replace(/-/g, '')}`;

const tenantOf = (event: EventEnvelope): Tenant => ({ accountId: event.tenant.account_id, environment: event.tenant.environment });

/** The recurrence object of 2.1 as GET shows it, without the QR image (as list results show it). */
export function recurrenceView(r: Recurrence): RecurrenceResponse {
  const d = r.data;
  return {
    recurrence_id: d.recurrence_id,
    status: r.status,
    contract: d.transaction_id,
    debtor: { document_number: d.debtor.document_number, name: d.debtor.name },
    schedule: { start_date: d.schedule.start_date, end_date: d.schedule.end_date, periodicity: d.schedule.periodicity },
    amount: centavosToReais(d.amount_centavos),
    retry_policy: d.retry_policy,
    business_day_adjust: d.business_day_adjust,
    charge_lead_days: d.charge_lead_days,
    journey: r.journey,
    pix_copy_paste: pixCopyPasteOf(r),
    webhook: d.webhook,
    ...(d.activation && { activation: { charge_id: d.activation.charge_id, amount: centavosToReais(d.activation.amount_centavos) } }),
  };
}

/** The charge object as GET shows it (docs/api/charges.md). */
export function chargeView(r: Recurrence, chargeId: string, createdAt: string): ChargeResponse | undefined {
  const c = r.charges.find((charge) => charge.charge_id === chargeId);
  if (!c) return undefined;
  return {
    charge_id: c.charge_id,
    recurrence_id: r.data.recurrence_id,
    type: c.type,
    amount: centavosToReais(c.amount_centavos),
    due_date: c.due_date,
    status: c.status,
    retries: c.retries,
    created_at: new Date(createdAt).toISOString(),
    paid_at: c.paid_at === null ? null : new Date(c.paid_at).toISOString(),
  };
}

const CHARGE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(ChargeEventTypes));

/** A cleared (null) or replaced webhook: the pending deliveries of its group to another URL end (4.4). */
export interface WebhookChange {
  group_id: string;
  url: string | null;
}

export interface FoldStep {
  fold: RecurrenceFold;
  notification: Notification | undefined;
  webhookChange: WebhookChange | undefined;
}

/** A recurrence-stream event applied to the fold: the notification it makes, if its resource has a webhook, and the webhook it changed. */
export function foldRecurrenceEvent(fold: RecurrenceFold, event: EventEnvelope): FoldStep {
  const domainEvent = { type: event.type, data: event.data } as RecurrenceEvent;
  const state = recurrence.evolve(fold.recurrence, domainEvent);
  const chargeCreatedAt =
    event.type === ChargeEventTypes.created
      ? { ...fold.charge_created_at, [(event.data as { charge_id: string }).charge_id]: event.occurred_at }
      : fold.charge_created_at;
  const next: RecurrenceFold = { recurrence: state, charge_created_at: chargeCreatedAt };
  if (state.status === 'NONE') return { fold: next, notification: undefined, webhookChange: undefined };
  const base = { id: deliveryIdOf(event.event_id), tenant: tenantOf(event), event_type: event.type, sequence: event.version };
  const recurrenceId = state.data.recurrence_id;
  const changed = event.type === RecurrenceEventTypes.updated && (event.data as { webhook?: string | null }).webhook !== undefined;
  const webhookChange = changed ? { group_id: `recurrence:${recurrenceId}`, url: state.data.webhook } : undefined;
  if (CHARGE_EVENT_TYPES.has(event.type)) {
    // The charge event names the URL in effect for it (the activation's own, or the recurrence's current one).
    const { charge_id: chargeId, webhook, type } = event.data as { charge_id: string; webhook: string | null; type: string };
    const data = chargeView(state, chargeId, chargeCreatedAt[chargeId] ?? event.occurred_at);
    if (!webhook || !data) return { fold: next, notification: undefined, webhookChange };
    const group_id = type === 'activation' ? `recurrence:${recurrenceId}:activation` : `recurrence:${recurrenceId}`;
    return {
      fold: next,
      notification: {
        ...base,
        resource_type: 'charge',
        resource_id: chargeId,
        group_id,
        url: webhook,
        payload: { type: event.type, environment: event.tenant.environment, timestamp: event.occurred_at, data },
      },
      webhookChange,
    };
  }
  const url = state.data.webhook;
  if (!url) return { fold: next, notification: undefined, webhookChange };
  return {
    fold: next,
    webhookChange,
    notification: {
      ...base,
      resource_type: 'recurrence',
      resource_id: recurrenceId,
      group_id: `recurrence:${recurrenceId}`,
      url,
      payload: { type: event.type, environment: event.tenant.environment, timestamp: event.occurred_at, data: recurrenceView(state) },
    },
  };
}

/** Cash-in and payout events carry their whole record, webhook included: no fold needed. */
export function recordNotification(event: EventEnvelope): Notification | undefined {
  const base = { id: deliveryIdOf(event.event_id), tenant: tenantOf(event), event_type: event.type, sequence: event.version };
  if ((Object.values(PixChargeEventTypes) as string[]).includes(event.type)) {
    const data = event.data as PixChargePaidData | PixChargeRefundData;
    const charge = pixChargeRecordOf(data);
    if (!charge.webhook) return undefined;
    const resourceId = String(charge.id);
    return {
      ...base,
      resource_type: 'pix_charge',
      resource_id: resourceId,
      group_id: `pix_charge:${resourceId}`,
      url: charge.webhook,
      // A refund event shows the refund (its charge named in `transaction`); the others, the charge.
      payload: {
        type: event.type,
        environment: event.tenant.environment,
        timestamp: event.occurred_at,
        data: 'refund' in data ? refundResponse(data.refund, charge) : pixChargeResponse(charge),
      },
    };
  }
  if ((Object.values(PayoutEventTypes) as string[]).includes(event.type)) {
    const { payout } = event.data as PayoutCreatedData | PayoutStatusChangedData;
    if (!payout.webhook) return undefined;
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
export const RECORD_EVENT_TYPES: readonly string[] = [...Object.values(PixChargeEventTypes), ...Object.values(PayoutEventTypes)];
