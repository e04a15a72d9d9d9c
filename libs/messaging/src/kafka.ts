import { Admin, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { TopicSpec } from '@pixauto/contracts';
import { OutboxMessage, OutboxSink } from '@pixauto/event-store';
import { contextOf, endSpan, kafkaLogCreator, SpanKind, startSpan, traceHeaders, tracingEnabled } from '@pixauto/telemetry';
import { ROOT_CONTEXT, Span, trace } from '@opentelemetry/api';
import { stopKafkajsIdleLoop } from './kafkajs-idle-loop';

export const kafkaBrokers = (env: NodeJS.ProcessEnv = process.env): string[] => (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

export const createKafka = (clientId: string, brokers = kafkaBrokers()): Kafka => {
  stopKafkajsIdleLoop();
  return new Kafka({ clientId, brokers, logLevel: logLevel.WARN, logCreator: kafkaLogCreator(), retry: { retries: 8, initialRetryTime: 200 } });
};

/**
 * Which system a message belongs to: several systems (dev, the e2e profiles, a bench run) may share one broker, each
 * with its own databases (DATABASE_PREFIX), and none may act on another's events (a webhook delivered twice, a
 * limit counted in the wrong database). The outbox stamps it on every message; subscribers pass over the others'.
 */
export const SYSTEM_HEADER = 'pixauto-system';
export const systemOf = (env: NodeJS.ProcessEnv = process.env): string => env.DATABASE_PREFIX ?? 'pixauto';

/** Creates the topics a service publishes, with their partitions and retention; existing ones are left as they are. */
export async function ensureTopics(kafka: Kafka, topics: readonly TopicSpec[]): Promise<void> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic.name));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic: topic.name,
        numPartitions: topic.partitions,
        replicationFactor: 1,
        configEntries: [{ name: 'retention.ms', value: String(topic.retentionMs) }],
      })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Idempotent producer, one request in flight: no duplicates from producer retries, order kept per partition. */
export const createIdempotentProducer = (kafka: Kafka): Producer =>
  // The Java client's partitioner (murmur2), named so that any Kafka client keys a stream to the same partition.
  kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });

/** The outbox's way to Kafka: keyed by aggregate id, acknowledged by all in-sync replicas before the rows are deleted. */
export class KafkaOutboxSink implements OutboxSink {
  /** A replacement producer is not connected yet (or its connect failed): the next send connects it first. */
  private unconnected = false;

  /**
   * `newProducer`: how to make a producer with a new producer id. A broker that lost its recent state (killed and
   * restarted) refuses every later batch of the old id (out-of-order sequence, unknown producer): only a new producer
   * publishes again, and the outbox's at-least-once delivery makes the resend safe.
   */
  constructor(
    private producer: Producer,
    private readonly system = systemOf(),
    private readonly newProducer?: () => Producer,
  ) {}

  /** Disconnects the producer in use: the one it was given, or the one that replaced it. */
  async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }

  async send(messages: OutboxMessage[]): Promise<void> {
    if (this.unconnected) {
      await this.producer.connect();
      this.unconnected = false;
    }
    const byTopic = new Map<string, OutboxMessage[]>();
    for (const message of messages) {
      const list = byTopic.get(message.topic) ?? [];
      if (list.length === 0) byTopic.set(message.topic, list);
      list.push(message);
    }
    const spans: Span[] = [];
    const headersOf = (message: OutboxMessage) => {
      const headers = { ...message.headers, [SYSTEM_HEADER]: this.system };
      if (!tracingEnabled()) return headers;
      // A publish span, child of the span that appended the event (its context stored with the outbox row), is the
      // parent of the consumers' spans.
      const span = startSpan(`${message.topic} publish`, SpanKind.PRODUCER, contextOf(message.headers), {
        'messaging.system': 'kafka',
        'messaging.destination.name': message.topic,
      });
      if (!span) return headers;
      spans.push(span);
      return { ...headers, ...traceHeaders(trace.setSpan(ROOT_CONTEXT, span)) };
    };
    try {
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({
          topic,
          messages: list.map((message) => ({ key: message.key, value: message.value, headers: headersOf(message) })),
        })),
      });
      for (const span of spans) endSpan(span);
    } catch (error) {
      for (const span of spans) endSpan(span, error);
      if (this.newProducer && PRODUCER_STATE_LOST.has(errorType(error))) await this.renewProducer();
      throw error;
    }
  }

  private async renewProducer(): Promise<void> {
    const old = this.producer;
    this.producer = this.newProducer!();
    this.unconnected = true;
    await old.disconnect().catch(() => undefined);
  }
}

/** The broker's answers that mean it no longer knows this producer's sequence (kafkajs's protocol error types). */
const PRODUCER_STATE_LOST = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

const errorType = (error: unknown): string => {
  const { type, cause } = (error ?? {}) as { type?: unknown; cause?: { type?: unknown } };
  return String(type ?? cause?.type ?? '');
};
