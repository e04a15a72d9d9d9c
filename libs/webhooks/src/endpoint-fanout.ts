import { createHash } from 'node:crypto';
import { Environment } from '@pixauto/contracts';
import { Notification, WebhookEvent } from './notifications';

// Which webhook endpoints an event goes to (docs/decisions/webhooks.md "Webhook endpoints"). Pure: the intake reads
// the enabled endpoints of a batch's tenants in one query and this makes their deliveries.

/** What the fan-out needs of an enabled endpoint. */
export interface EndpointTarget {
  id: string;
  account_id: string;
  environment: Environment;
  url: string;
  /** [] takes every event type. */
  event_types: readonly string[];
}

/**
 * A delivery's id to an endpoint, derived from the event's own delivery id and the endpoint's: a redelivered event
 * makes no second delivery, and each endpoint has its own `webhook-id`, in the same `msg_` and 32 hex digits form.
 */
export const endpointDeliveryIdOf = (eventDeliveryId: string, endpointId: string): string =>
  `msg_${createHash('sha256').update(`${eventDeliveryId}:${endpointId}`).digest('hex').slice(0, 32)}`;

/** Deliveries of one endpoint keep a resource's order among themselves, and never wait for its own webhook's or another endpoint's. */
export const endpointGroupOf = (endpointId: string, groupId: string): string => `endpoint:${endpointId}:${groupId}`;

/** Whether the endpoint takes events of this type. */
export const takesEventType = (endpoint: Pick<EndpointTarget, 'event_types'>, type: string): boolean =>
  endpoint.event_types.length === 0 || endpoint.event_types.includes(type);

/**
 * One delivery per event and enabled endpoint of its account and environment that takes its type: the same body as
 * the resource's own webhook gets, to the endpoint's URL.
 */
export function endpointNotifications(events: readonly WebhookEvent[], endpoints: readonly EndpointTarget[]): Notification[] {
  if (endpoints.length === 0) return [];
  const byTenant = new Map<string, EndpointTarget[]>();
  for (const endpoint of endpoints) {
    const key = `${endpoint.account_id}:${endpoint.environment}`;
    byTenant.set(key, [...(byTenant.get(key) ?? []), endpoint]);
  }
  return events.flatMap((event) =>
    (byTenant.get(`${event.tenant.accountId}:${event.tenant.environment}`) ?? [])
      .filter((endpoint) => takesEventType(endpoint, event.event_type))
      .map((endpoint): Notification => ({
        ...event,
        id: endpointDeliveryIdOf(event.id, endpoint.id),
        group_id: endpointGroupOf(endpoint.id, event.group_id),
        url: endpoint.url,
        endpoint_id: endpoint.id,
      })),
  );
}
