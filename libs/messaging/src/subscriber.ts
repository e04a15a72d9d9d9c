import { Consumer, Kafka } from 'kafkajs';
import { EventEnvelope } from '@pixauto/contracts';

export interface Subscription {
  /** The consumer group: one per subscribing service, so each service sees every event once. */
  groupId: string;
  topics: string[];
  /** Only these event types reach `handle`; others are passed over (their offsets committed) without a transaction. */
  types?: readonly string[];
  /** Must be idempotent (processOnce): a failure leaves the offset uncommitted and the event comes again. */
  handle(event: EventEnvelope): Promise<void>;
}

/**
 * Delivers a topic's events to a handler, at least once, in order per key. kafkajs directly rather than NestJS's
 * Kafka transport: an event handler's failure must leave the offset uncommitted so the event is redelivered.
 */
export class EventSubscriber {
  private consumer?: Consumer;

  constructor(private readonly kafka: Kafka, private readonly subscription: Subscription) {}

  /** Resolves once the consumer has joined its group, so that a service takes traffic only with its subscriptions live. */
  async start(joinTimeoutMs = 60_000): Promise<void> {
    // A short session: after a kill -9 the group waits out the dead member's session before a restart can rejoin.
    const consumer = this.kafka.consumer({
      groupId: this.subscription.groupId,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
      // The broker answers a fetch as soon as an event arrives; a short wait would only cost idle polling.
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.subscription.groupId} did not join its group in ${joinTimeoutMs} ms`)), joinTimeoutMs);
      consumer.on(consumer.events.GROUP_JOIN, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.subscription.topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (!message.value) return;
        const { types } = this.subscription;
        // The outbox names each event's type in a header: an event not followed is passed over without parsing it.
        const headerType = message.headers?.['event-type']?.toString();
        if (types && headerType !== undefined && !types.includes(headerType)) return;
        const event = JSON.parse(message.value.toString()) as EventEnvelope;
        if (types && !types.includes(event.type)) return;
        await this.subscription.handle(event);
      },
    });
    await joined;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
