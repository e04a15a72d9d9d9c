// `pixauto listen`: the sandbox's webhook events streamed to a developer's terminal (docs/api/sdk.md). The webhook
// dispatcher publishes each sandbox event's webhook body on its account's Redis channel as it takes the event in;
// the gateway relays the channel, bytes as they are, to the account's listeners over server-sent events.

/** The Redis channel of one sandbox account's events. */
export const sandboxListenChannel = (accountId: string): string => `pixauto:sandbox-listen:${accountId}`;

/** One message on the channel: the webhook's id and its body, the JSON text a webhook of it would POST. */
export interface ListenedEvent {
  id: string;
  type: string;
  body: string;
}

/** Listeners one account may hold at once, on each gateway replica. */
export const MAX_SANDBOX_LISTENERS = 5;
