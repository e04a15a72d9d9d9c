// Webhook deliveries (platform.md §5): what the webhook-dispatcher sends, and what a merchant reads of it through
// GET /v2/webhooks/deliveries and GET /v2/webhooks/deliveries/:id.

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
/**
 * pending: waiting for its next attempt; delivered: a 2xx answered; failed: every attempt of the schedule failed,
 * or the endpoint answered 410 Gone; cancelled: the resource's webhook was cleared or replaced before it was delivered.
 */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The resources whose events reach a webhook. */
export type WebhookResourceType = 'recurrence' | 'charge' | 'pix_charge' | 'payout';

/** The body every webhook request carries (Standard Webhooks): `data` is the resource as its GET shows it then. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: unknown;
}

export interface DeliveryAttemptResponse {
  /** 1, 2, 3...: the attempts in the order they were made, manual ones included. */
  number: number;
  attempted_at: string;
  url: string;
  /** The HTTP status the endpoint answered; null when there was no answer (timeout, refused, blocked address). */
  status_code: number | null;
  /** Why it failed, when it did. */
  error: string | null;
  latency_ms: number;
  /** The first bytes of the endpoint's answer. */
  response_body: string | null;
  /** `schedule` for the automatic attempts, `manual` for POST .../retry. */
  trigger: 'schedule' | 'manual';
}

export interface DeliverySummaryResponse {
  /** Also the `webhook-id` header of every attempt of this delivery. */
  id: string;
  event_type: string;
  resource_type: WebhookResourceType;
  resource_id: string;
  url: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface DeliveryResponse extends DeliverySummaryResponse {
  /** The body as sent (the same bytes on every attempt). */
  payload: WebhookPayload;
  attempts: DeliveryAttemptResponse[];
}

export interface DeliveryListResponse {
  pagination: { current_page: number; page_size: number; total_pages: number; total_items: number };
  deliveries: DeliverySummaryResponse[];
}

/** POST /admin/accounts/:id/webhook-secret: the new secret; the previous one keeps signing beside it until then. */
export interface WebhookSecretRotatedResponse {
  account_id: string;
  webhook_secret: string;
  previous_secret_valid_until: string;
}

/** How long a replaced secret keeps signing beside the new one (platform.md §5). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
