import { ChargeEventTypes } from '../charges/charge.events';
import { DueDateChargeEventTypes } from '../payments/due-date-charge';
import { PixChargeEventTypes } from '../payments/pix-charge';
import { PayoutEventTypes } from '../payouts/payout.events';
import { RecurrenceEventTypes } from '../recurrences/recurrence.events';

// Every event a merchant's webhook can receive, in one place: the dispatcher accepts exactly these (libs/webhooks),
// the delivery log filters by them, and the OpenAPI documents list them with their payloads (the `webhooks` section).

/** The kind of resource an event is about: a recurrence, a charge of a recurrence, a Pix charge (or its refunds), a due-date Pix charge or a payout. */
export type WebhookResourceType = 'recurrence' | 'charge' | 'pix_charge' | 'due_date_charge' | 'payout';

export interface WebhookEventDoc {
  resource: WebhookResourceType;
  /** The component schema of the body's `data`: the resource as its GET answers it when the event happened. */
  data: 'RecurrenceResponse' | 'ChargeResponse' | 'PixChargeResponse' | 'DueDateChargeResponse' | 'RefundResponse' | 'DisputeResponse' | 'PayoutResponse';
  /** When it is sent, in a merchant's words. */
  description: string;
}

const recurrence = (description: string): WebhookEventDoc => ({ resource: 'recurrence', data: 'RecurrenceResponse', description });
const charge = (description: string): WebhookEventDoc => ({ resource: 'charge', data: 'ChargeResponse', description });
const pixCharge = (description: string): WebhookEventDoc => ({ resource: 'pix_charge', data: 'PixChargeResponse', description });
const refund = (description: string): WebhookEventDoc => ({ resource: 'pix_charge', data: 'RefundResponse', description });
const dispute = (description: string): WebhookEventDoc => ({ resource: 'pix_charge', data: 'DisputeResponse', description });
const dueDateCharge = (description: string): WebhookEventDoc => ({ resource: 'due_date_charge', data: 'DueDateChargeResponse', description });
const payout = (description: string): WebhookEventDoc => ({ resource: 'payout', data: 'PayoutResponse', description });

export const WEBHOOK_EVENTS = {
  [RecurrenceEventTypes.created]: recurrence('A recurrence was created (status CREATED): the payer can now authorize it.'),
  [RecurrenceEventTypes.updated]: recurrence('A recurrence was changed by PATCH (payer name, start date, webhook, business-day adjustment or lead days).'),
  [RecurrenceEventTypes.approved]: recurrence('The payer authorized the recurrence (status APPROVED, `journey` says how): its cycle charges will be created.'),
  [RecurrenceEventTypes.rejected]: recurrence('The payer refused the recurrence (status REJECTED).'),
  [RecurrenceEventTypes.expired]: recurrence("The solicitation's deadline passed with no answer from the payer (status EXPIRED)."),
  [RecurrenceEventTypes.cancelled]: recurrence('The recurrence was cancelled (status CANCELLED). Charges already issued stay as they are.'),
  [RecurrenceEventTypes.activationExpired]: recurrence(
    'Journey 3: the activation payment expired unpaid; the recurrence can no longer be authorized (its `pix_copy_paste` is null). Cancel it and create a new one.',
  ),
  [ChargeEventTypes.created]: charge(
    "A charge was issued: a cycle's charge, created `charge_lead_days` before its due date, or the journey 3 activation payment.",
  ),
  [ChargeEventTypes.paid]: charge("The payer's bank settled the charge (status PAID, `paid_at` set)."),
  [ChargeEventTypes.failed]: charge(
    "A debit attempt failed (status FAILED). Where the recurrence's retry policy allows it (ALLOWS_3R_7D), POST .../retry sets a new date.",
  ),
  [ChargeEventTypes.cancelled]: charge('The charge was cancelled before it was paid.'),
  [ChargeEventTypes.rescheduled]: charge("The charge's due date was moved (`due_date` is the new one)."),
  [ChargeEventTypes.retryScheduled]: charge('A failed charge will be debited again on a new date (status SCHEDULED; `retries` counts the retries).'),
  [ChargeEventTypes.expired]: charge('A journey 3 activation payment can no longer be paid: its time ran out, or the payer refused or never answered first.'),
  [PixChargeEventTypes.created]: pixCharge('A Pix cash-in charge was created (status PENDING): its QR code can be paid.'),
  [PixChargeEventTypes.paid]: pixCharge('The payer paid the Pix cash-in charge (status PAID, `paid_at` set).'),
  [PixChargeEventTypes.expired]: pixCharge('The Pix cash-in charge expired unpaid (status EXPIRED).'),
  [PixChargeEventTypes.refundRequested]: refund('A refund of a paid Pix charge was asked for (status PROCESSING); the charge stays PAID.'),
  [PixChargeEventTypes.refunded]: refund('The bank returned the money to the payer (status REFUNDED, `refunded_at` set): its receipt can be fetched.'),
  [PixChargeEventTypes.refundFailed]: refund('The bank could not return the money (status FAILED); the amount can be refunded again.'),
  [PixChargeEventTypes.disputeOpened]: dispute(
    "The payer's bank disputes a Pix you received (status OPEN): `blocked_amount` is held, and a defence is accepted until `defence_deadline`.",
  ),
  [PixChargeEventTypes.disputeDefended]: dispute('Your defence of a dispute reached the bank (status DEFENDED).'),
  [PixChargeEventTypes.disputeReturned]: dispute(
    'The bank concluded the dispute for the payer (status RETURNED): `return` says how much went back, its end-to-end id and natureza.',
  ),
  [PixChargeEventTypes.disputeRejected]: dispute('The bank rejected the claim (status REJECTED): the blocked amount is released.'),
  [DueDateChargeEventTypes.paid]: dueDateCharge('The payer paid the due-date charge (status PAID): `amount_paid` shows what they paid that day and why.'),
  [DueDateChargeEventTypes.expired]: dueDateCharge('The due-date charge passed its last payable day unpaid (status EXPIRED).'),
  [DueDateChargeEventTypes.cancelled]: dueDateCharge('The due-date charge was cancelled while unpaid (status CANCELLED).'),
  [PayoutEventTypes.created]: payout('A payout was accepted (status 0, created, awaiting processing).'),
  [PayoutEventTypes.statusChanged]: payout('A payout changed status: 4 processing, 1 completed (`paid_at`, `e2e` set), 2 cancelled or 3 rejected.'),
  [PayoutEventTypes.returned]: payout('The receiving bank sent (part of) a completed payout back; its status stays 1 and its return receipt can be fetched.'),
} as const satisfies Record<string, WebhookEventDoc>;

/** The type of an event a webhook receives (the body's `type`): the `webhooks` section of this reference describes each. */
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

/** Every `type` a webhook body can carry, and the values of the delivery log's `event_type` filter. */
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as readonly WebhookEventType[];
