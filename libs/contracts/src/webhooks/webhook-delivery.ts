import { Environment } from '../tenant';
import { WebhookEventType, WebhookResourceType } from './webhook-events';

// Webhook deliveries (docs/decisions/webhooks.md): what the webhook-dispatcher sends, and what a merchant reads of it through
// GET /v2/webhooks/deliveries and GET /v2/webhooks/deliveries/:id.

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
/**
 * pending: waiting for its next attempt. delivered: your endpoint answered 2xx. failed: every attempt of the schedule
 * failed, or your endpoint answered 410 Gone. cancelled: the resource's webhook was cleared or replaced, or the webhook
 * endpoint disabled or deleted, before it was delivered.
 */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The JSON body of every webhook request (Standard Webhooks). */
export interface WebhookPayload {
  /** The event type, e.g. `charge.paid`. */
  type: string;
  /** Where the event happened: `production` or `sandbox`. Each environment signs with its own secret; a production receiver also refuses any body whose `environment` is not `production`. */
  environment: Environment;
  /** When the event happened, ISO 8601 in UTC (in the sandbox, by the account's test clock). */
  timestamp: string;
  /** The resource as its GET showed it right after the event (a recurrence without `qrcode`; for a refund event, the refund). */
  data: unknown;
}

/** One attempt to deliver a webhook: one HTTP request to your endpoint. */
export interface DeliveryAttemptResponse {
  /** 1, 2, 3...: the attempts in the order they were made, manual retries included. */
  number: number;
  /** When the attempt was made, ISO 8601 in UTC. */
  attempted_at: string;
  /** The URL the request went to. */
  url: string;
  /** The HTTP status your endpoint answered; null when there was no answer (a timeout, a refused connection, a refused address). */
  status_code: number | null;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
  /** How long the attempt took, in milliseconds. */
  latency_ms: number;
  /** The first kilobyte of your endpoint's answer; null when there was none. */
  response_body: string | null;
  /** `schedule` for the automatic attempts, `manual` for a retry you asked for. */
  trigger: 'schedule' | 'manual';
}

/**
 * A webhook delivery: one event sent to one URL, attempted until your endpoint answers 2xx within 15 seconds. Failed
 * attempts are retried 10 times in all over about 3 days (after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h).
 */
export interface DeliverySummaryResponse {
  /** Unique identifier of the delivery (`msg_...`), also the `webhook-id` header of every attempt: use it to ignore a repeat. */
  id: string;
  /** The event type, e.g. `charge.paid` (the body's `type`). */
  event_type: WebhookEventType;
  /** The kind of resource the event is about. */
  resource_type: WebhookResourceType;
  /** The resource's identifier: a `recurrence_id` or `charge_id`, or a Pix charge's or payout's `id`. */
  resource_id: string;
  /** The URL the event is sent to: the resource's `webhook` when the event happened, or a webhook endpoint's URL. */
  url: string;
  /** The webhook endpoint the delivery is for; null for a resource's own `webhook`. */
  endpoint_id: string | null;
  /** Where the delivery stands. */
  status: DeliveryStatus;
  /** How many attempts have been made, manual retries included. */
  attempt_count: number;
  /** When the next automatic attempt is due, ISO 8601 in UTC; null when none is (delivered, failed or cancelled). */
  next_attempt_at: string | null;
  /** Why the latest attempt failed; null when it has not failed. */
  last_error: string | null;
  /** When the delivery was created (right after the event), ISO 8601 in UTC. */
  created_at: string;
  /** When your endpoint accepted it, ISO 8601 in UTC; null until then. */
  delivered_at: string | null;
}

/** A webhook delivery with the body it sends and every attempt made. */
export interface DeliveryResponse extends DeliverySummaryResponse {
  /** The body as sent: the same bytes on every attempt. */
  payload: WebhookPayload;
  /** Every attempt so far, oldest first. */
  attempts: DeliveryAttemptResponse[];
}

/** One page of webhook deliveries, newest first. */
export interface DeliveryListResponse {
  /** Where this page sits in the whole result. */
  pagination: {
    /** The page returned, counted from 0. */
    current_page: number;
    /** The page size applied (1 to 100, default 20). */
    page_size: number;
    /** How many pages the whole result has. */
    total_pages: number;
    /** How many deliveries match the filters, across all pages. */
    total_items: number;
  };
  /** This page's deliveries, newest first, without their payload and attempts. */
  deliveries: DeliverySummaryResponse[];
}

// POST /admin/accounts/:id/webhook-secret?environment=: the new secret of one environment; the previous one keeps
// signing that environment's webhooks beside it until then.
/** The account's new webhook secret for one environment. */
export interface WebhookSecretRotatedResponse {
  /** The account. */
  account_id: string;
  /** The environment whose webhooks the new secret signs; the other environment's secret is unchanged. */
  environment: Environment;
  /** The new secret (`whsec_...`): every webhook of this environment is signed with it from now on. */
  webhook_secret: string;
  /** Until when, ISO 8601 in UTC (24 hours from now), this environment's webhooks also carry a signature made with its previous secret, so receivers can switch without losing any; null when there was no previous secret. */
  previous_secret_valid_until: string | null;
}

/** How long a replaced secret keeps signing beside the new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The deliveries a POST /v2/webhooks/deliveries/retry queued for one more attempt each. */
export interface DeliveriesRetriedResponse {
  /** How many deliveries matched the filters: each gets one attempt within seconds, outside its schedule. */
  queued: number;
}
