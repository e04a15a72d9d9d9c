import { Environment } from './tenant';

/** What travels on Kafka for every domain event: the stored event plus where it came from (asyncapi.yaml). */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  event_id: string;
  type: TType;
  stream_id: string;
  version: number;
  tenant: { account_id: string; environment: Environment };
  occurred_at: string;
  data: TData;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  retentionMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Topics are created explicitly at start-up by the services that publish them, never auto-created. */
export const Topics = {
  accounts: { name: 'pixauto.accounts.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  limits: { name: 'pixauto.limits.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  recurrences: { name: 'pixauto.recurrences.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  /**
   * Where the charges of recurrences were published when their events carried only the change (version 1). Nothing
   * publishes here any more: a recurrence's charges travel on `recurrences`, in its order. Followed until its
   * messages age out.
   */
  charges: { name: 'pixauto.charges.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  solicitations: { name: 'pixauto.solicitations.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  payments: { name: 'pixauto.payments.events.v1', partitions: 6, retentionMs: 30 * DAY_MS },
  /** Kept for good (-1): every event carries the whole payout, and payout-query-service rebuilds its read model from it. */
  payouts: { name: 'pixauto.payouts.events.v1', partitions: 6, retentionMs: -1 },
  /** Sandbox test clocks (docs/decisions/sandbox-clock.md): small, and every service reads it whole at start-up. */
  sandboxClock: { name: 'pixauto.sandbox-clock.events.v1', partitions: 1, retentionMs: 3650 * DAY_MS },
} as const satisfies Record<string, TopicSpec>;
