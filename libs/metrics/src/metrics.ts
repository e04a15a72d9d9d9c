import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

// Every metric of the platform, in one place, on prom-client's default registry: each app's ops listener serves them at
// /metrics (docs/operations.md "Health and metrics" says what each tells an operator). A request, call or run is one
// observation of its histogram: `_count` counts them by label, `_bucket` and `_sum` give the latency.

/** Seconds, from a Redis hit to the bank's 10 s time limit. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds, for work that may wait for minutes (a scheduler's run, an event in the outbox). */
const LONG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export const httpRequests = new Histogram({
  name: 'pixauto_http_request_duration_seconds',
  help: 'HTTP requests answered, by listener, method, route (its template; "unmatched" when none) and status',
  labelNames: ['listener', 'method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
});

export const rpcRequests = new Histogram({
  name: 'pixauto_rpc_request_duration_seconds',
  help: "The gateway's messages a service answered, by pattern and the status of its reply",
  labelNames: ['pattern', 'status'] as const,
  buckets: LATENCY_BUCKETS,
});

export type CallOutcome = 'ok' | 'refused' | 'failed' | 'unreachable';

export const bankCalls = new Histogram({
  name: 'pixauto_bank_request_duration_seconds',
  help: 'Calls to a bank (the BCB API Pix, a receipt provider), by bank, operation and outcome: ok 2xx, refused 4xx, failed 5xx, unreachable (no answer in time)',
  labelNames: ['bank', 'operation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
});

export type SchedulerOutcome = 'done' | 'more' | 'failed';

export const schedulerRuns = new Histogram({
  name: 'pixauto_scheduler_run_duration_seconds',
  help: 'Runs of a periodic task, by task and outcome: done (nothing more due), more (a full page: runs again at once), failed',
  labelNames: ['task', 'outcome'] as const,
  buckets: LONG_BUCKETS,
});

export const outboxPublishLag = new Histogram({
  name: 'pixauto_outbox_publish_lag_seconds',
  help: 'Per event, from its commit to the outbox to Kafka acknowledging it',
  buckets: LONG_BUCKETS,
});

export interface OutboxState {
  /** Rows waiting to be published. */
  backlog: number;
  /** How long the oldest of them has waited; 0 when none does. */
  oldestAgeSeconds: number;
}

let readOutbox: (() => Promise<OutboxState>) | undefined;
let reading: Promise<OutboxState | undefined> | undefined;

/** One read per scrape for both outbox gauges (prom-client collects them at the same time); a failed read leaves them as they were. */
function outboxState(): Promise<OutboxState | undefined> {
  reading ??= (readOutbox?.() ?? Promise.resolve(undefined)).catch(() => undefined).finally(() => (reading = undefined));
  return reading;
}

export const outboxBacklog = new Gauge({
  name: 'pixauto_outbox_backlog',
  help: 'Events committed but not yet published to Kafka',
  async collect() {
    const state = await outboxState();
    if (state) this.set(state.backlog);
  },
});

export const outboxOldestAge = new Gauge({
  name: 'pixauto_outbox_oldest_age_seconds',
  help: 'How long the oldest unpublished event has waited (0 when the outbox is empty)',
  async collect() {
    const state = await outboxState();
    if (state) this.set(state.oldestAgeSeconds);
  },
});

/** Where the outbox gauges read from, at each scrape (the app's own database). */
export function observeOutbox(read: () => Promise<OutboxState>): void {
  readOutbox = read;
}

export const messagesConsumed = new Counter({
  name: 'pixauto_kafka_messages_consumed_total',
  help: 'Kafka messages a consumer group of this process went through (handled or passed over), by group and topic',
  labelNames: ['group', 'topic'] as const,
});

export const consumerLag = new Gauge({
  name: 'pixauto_kafka_consumer_lag',
  help: "Messages of a topic not yet consumed by a group, summed over the topic's partitions, as of the group's last fetch",
  labelNames: ['group', 'topic'] as const,
});

const lagByPartition = new Map<string, Map<number, number>>();

/** A partition's lag after a batch (kafkajs tells it for free): the topic's gauge is the sum over its partitions. */
export function recordConsumerLag(group: string, topic: string, partition: number, lag: number): void {
  const key = `${group}\u0000${topic}`;
  const partitions = lagByPartition.get(key) ?? new Map<number, number>();
  lagByPartition.set(key, partitions.set(partition, lag));
  let sum = 0;
  for (const value of partitions.values()) sum += value;
  consumerLag.set({ group, topic }, sum);
}

/** The request log's lines by outcome: written, or lost (the database refused them, or too many waited to be written). */
export const requestLogLines = new Counter({
  name: 'pixauto_request_log_lines_total',
  help: "Lines of the console's request log by outcome: written, or dropped (not written: the database failed or too many were waiting)",
  labelNames: ['outcome'] as const,
});

export const apiKeyLookups = new Counter({
  name: 'pixauto_api_key_lookups_total',
  help: "API keys the gateway looked up, by where the answer came from: redis (a cached grant, revocation or unknown key) or database (Redis had nothing: the key's first use, or Redis away)",
  labelNames: ['source'] as const,
});

export type WebhookOutcome = 'delivered' | 'retry' | 'failed' | 'gone' | 'unchanged' | 'deferred' | 'cancelled';

export const webhookDeliveries = new Counter({
  name: 'pixauto_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered (2xx), retry (scheduled again), failed (schedule exhausted), gone (410), unchanged (a manual retry that failed), deferred (circuit open, not sent), cancelled (its webhook endpoint was disabled or deleted, not sent)',
  labelNames: ['outcome'] as const,
});

export const webhookReceiverLatency = new Histogram({
  name: 'pixauto_webhook_receiver_duration_seconds',
  help: "How long merchants' receivers took to answer a delivery",
  buckets: LATENCY_BUCKETS,
});

let processMetricsStarted = false;

/** prom-client's default metrics (CPU, memory, event loop lag, GC, handles) under the same prefix; every series carries `service`. */
export function startProcessMetrics(service: string): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  register.setDefaultLabels({ service });
  collectDefaultMetrics({ prefix: 'pixauto_' });
}

/** The Prometheus text exposition of every metric above. */
export const metricsText = (): Promise<string> => register.metrics();
export const METRICS_CONTENT_TYPE = register.contentType;
