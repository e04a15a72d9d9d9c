import { IsDefined, IsIn } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { IsWebhookUrl } from '../recurrences/recurrence.validators';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from './webhook-events';

const W = Messages.webhooks;

/** POST /v2/webhooks/test-events: a signed sample event of one type, sent to one URL and kept in the delivery log. */
@JSONSchema({ description: 'A test event to send: its type and where to send it.' })
export class SendTestEventRequest {
  @JSONSchema({ description: 'The event type to send a sample of: any type a webhook receives (the **Webhook events** section).' })
  @IsIn(WEBHOOK_EVENT_TYPES, { message: W.testEventTypeInvalid(WEBHOOK_EVENT_TYPES) })
  @IsDefined({ message: Messages.required('body.event_type') })
  event_type!: WebhookEventType;

  @JSONSchema({
    type: 'string',
    description: 'Where to send it: an http(s) URL of at most 255 characters, held to the same rules as every webhook (a production URL must be public https).',
  })
  @IsWebhookUrl({ message: W.testUrlInvalid })
  @IsDefined({ message: Messages.required('body.url') })
  url!: string;
}

export const SEND_TEST_EVENT_FIELDS = ['event_type', 'url'] as const;
