import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { IsWebhookUrl } from '../recurrences/recurrence.validators';
import { Environment } from '../tenant';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-events';

// Webhook endpoints (docs/api/webhooks.md#webhook-endpoints): URLs of an account in one environment that receive
// every event of the types they take, beside each resource's own `webhook`, each signed with its own secret.

const W = Messages.webhooks;

/** Endpoints one account may have in each environment. */
export const MAX_WEBHOOK_ENDPOINTS = 16;
/** How long a rotated endpoint secret keeps signing beside the new one, unless the rotation says otherwise. */
export const DEFAULT_ENDPOINT_OVERLAP_HOURS = 24;
export const MAX_ENDPOINT_OVERLAP_HOURS = 168;

type Schema = Parameters<typeof JSONSchema>[0];

const URL_DOC: Schema = {
  type: 'string',
  description:
    'Where the events are sent: an http(s) URL of at most 255 characters, held to the rules of every webhook (a production URL must be public https; a refused address is a failed attempt with its reason, in the delivery log).',
};
const EVENT_TYPES_DOC: Schema = {
  type: 'array',
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  description: 'The event types the endpoint receives (the **Webhook events** section); absent or `[]`: every event type.',
};
const DESCRIPTION_DOC: Schema = {
  type: ['string', 'null'],
  maxLength: 200,
  description: 'A note of your own: what the endpoint is for. At most 200 characters.',
};

/** POST /v2/webhooks/endpoints. */
@JSONSchema({ description: 'A new webhook endpoint: where to send events, which of them, and whether it receives them now.' })
export class CreateWebhookEndpointRequest {
  @JSONSchema(URL_DOC)
  @IsWebhookUrl({ message: W.endpointUrlInvalid })
  @IsDefined({ message: Messages.required('body.url') })
  url!: string;

  @JSONSchema(EVENT_TYPES_DOC)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: W.endpointEventTypeInvalid(WEBHOOK_EVENT_TYPES) })
  @IsArray({ message: W.endpointEventTypesInvalid })
  @IsOptional()
  event_types?: WebhookEventType[];

  @JSONSchema(DESCRIPTION_DOC)
  @MaxLength(200, { message: W.endpointDescriptionInvalid })
  @IsString({ message: W.endpointDescriptionInvalid })
  @IsOptional()
  description?: string | null;

  @JSONSchema({ type: 'boolean', description: '`false`: the endpoint is kept but receives nothing until enabled. Default `true`.' })
  @IsBoolean({ message: W.endpointEnabledInvalid })
  @IsOptional()
  enabled?: boolean;
}

export const CREATE_WEBHOOK_ENDPOINT_FIELDS = ['url', 'event_types', 'description', 'enabled'] as const;

/** PATCH /v2/webhooks/endpoints/{endpoint_id}: what is sent changes, the rest stays. */
@JSONSchema({ description: "The endpoint's fields to change: any of them, at least one." })
export class UpdateWebhookEndpointRequest {
  @JSONSchema(URL_DOC)
  @IsWebhookUrl({ message: W.endpointUrlInvalid })
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  url?: string;

  @JSONSchema(EVENT_TYPES_DOC)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: W.endpointEventTypeInvalid(WEBHOOK_EVENT_TYPES) })
  @IsArray({ message: W.endpointEventTypesInvalid })
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  event_types?: WebhookEventType[];

  @JSONSchema({ ...DESCRIPTION_DOC, description: 'A note of your own, at most 200 characters; `null` clears it.' })
  @MaxLength(200, { message: W.endpointDescriptionInvalid })
  @IsString({ message: W.endpointDescriptionInvalid })
  @IsOptional()
  description?: string | null;

  @JSONSchema({ type: 'boolean', description: '`false`: no new event is sent to it (its pending deliveries are cancelled); `true`: it receives events again.' })
  @IsBoolean({ message: W.endpointEnabledInvalid })
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  enabled?: boolean;
}

export const UPDATE_WEBHOOK_ENDPOINT_FIELDS = CREATE_WEBHOOK_ENDPOINT_FIELDS;

/** POST /v2/webhooks/endpoints/{endpoint_id}/secret/rotate. */
@JSONSchema({ description: 'How long the replaced secret keeps signing beside the new one.' })
export class RotateEndpointSecretRequest {
  @JSONSchema({
    type: 'integer',
    minimum: 0,
    maximum: MAX_ENDPOINT_OVERLAP_HOURS,
    description:
      'Hours (0 to 168, default 24) during which every delivery to the endpoint also carries a signature made with the previous secret; 0 ends it at once.',
  })
  @Max(MAX_ENDPOINT_OVERLAP_HOURS, { message: W.endpointOverlapInvalid })
  @Min(0, { message: W.endpointOverlapInvalid })
  @IsInt({ message: W.endpointOverlapInvalid })
  @IsOptional()
  previous_secret_expires_in_hours?: number;
}

export const ROTATE_ENDPOINT_SECRET_FIELDS = ['previous_secret_expires_in_hours'] as const;

/** POST /v2/webhooks/endpoints/{endpoint_id}/test. */
@JSONSchema({ description: 'A test event to send to the endpoint.' })
export class SendEndpointTestEventRequest {
  @JSONSchema({
    description:
      "The event type to send a sample of (the **Webhook events** section); absent: the endpoint's first event type, or `recurrence.created` for an endpoint that takes every type.",
  })
  @IsIn(WEBHOOK_EVENT_TYPES, { message: W.testEventTypeInvalid(WEBHOOK_EVENT_TYPES) })
  @IsOptional()
  event_type?: WebhookEventType;
}

export const SEND_ENDPOINT_TEST_EVENT_FIELDS = ['event_type'] as const;

/** A webhook endpoint: a URL of your account in one environment that receives every event of the types it takes. */
export interface WebhookEndpointResponse {
  /** The endpoint's identifier (a UUID); deliveries to it name it in the delivery log's `endpoint_id`. */
  endpoint_id: string;
  /** Where its events are sent. */
  url: string;
  /** The event types it receives; `[]`: every event type. */
  event_types: WebhookEventType[];
  /** Your note about it; null when none. */
  description: string | null;
  /** Whether it receives events now. */
  enabled: boolean;
  /** The environment whose events it receives: the one of the key that created it. */
  environment: Environment;
  /** When it was created, ISO 8601 in UTC. */
  created_at: string;
  /** When it last changed (its secret's rotation included), ISO 8601 in UTC. */
  updated_at: string;
}

/** A new endpoint, with its signing secret. */
export interface WebhookEndpointCreatedResponse extends WebhookEndpointResponse {
  /** The endpoint's own signing secret (`whsec_...`, Standard Webhooks): verify each of its requests' `webhook-signature` with it. GET .../secret shows it again. */
  secret: string;
}

/** Your account's endpoints in this environment, oldest first. */
export interface WebhookEndpointListResponse {
  /** At most 16. */
  endpoints: WebhookEndpointResponse[];
}

/** An endpoint's signing secret. */
export interface WebhookEndpointSecretResponse {
  /** The secret (`whsec_...`) that signs every request to the endpoint. */
  secret: string;
  /** Until when, ISO 8601 in UTC, its requests also carry a signature made with the previous secret (after a rotation); null when none does. */
  previous_secret_valid_until: string | null;
}
