import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** The headers of the webhook request as your framework gives them: Node's, fetch's Headers, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a webhook we sent you (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) against your signing
 * secret (whsec_...), and returns its event. Pass the body exactly as it arrived (text or bytes), before any JSON parsing. Throws
 * WebhookVerificationError when the signature does not match, or the timestamp is more than 5 minutes away (a replay).
 * During a secret's rotation we sign with both secrets: either one verifies.
 */
export function verifyWebhook<Event = unknown>(secret: string, body: string | Uint8Array, headers: WebhookHeaders): Event {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (plain[name] = value));
  else
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return new Webhook(secret).verify(typeof body === 'string' ? body : new TextDecoder().decode(body), plain) as Event;
}
