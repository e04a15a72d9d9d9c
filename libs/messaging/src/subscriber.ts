import { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { EventEnvelope } from '@pixauto/contracts';
import { messagesConsumed, recordConsumerLag } from '@pixauto/metrics';
import { carriedRequestId, contextOf, endSpan, inSpan, REQUEST_ID_EVENT_HEADER, rootLogger, SpanKind, startSpan, withRequest } from '@pixauto/telemetry';
import { SYSTEM_HEADER, systemOf } from './kafka';

/** What every follower says: which events it follows, from where, and where it records how far it applied them. */
interface SubscriptionBase {
  /** The consumer group: one per subscribing service, so each service sees every event once. */
  groupId: string;
  topics: string[];
  /** Only these event types reach the handler; others are passed over (their offsets committed) without a transaction. */
  types?: readonly string[];
  /** Where a new group starts: the beginning of the topics (the default), or their end (only what happens from now on). */
  fromBeginning?: boolean;
  /**
   * Where the follower records, after its handler, how far it has applied each stream, for the reads that must see a
   * merchant's own writes (FollowerPositions of @pixauto/event-store). A follower that answers no read has none.
   */
  positions?: AppliedPositions;
}

/** A follower of one event at a time. */
interface EventByEvent extends SubscriptionBase {
  /** Must be idempotent (processOnce): a failure leaves the offset uncommitted and the event comes again. */
  handle(event: EventEnvelope): Promise<void>;
  handleBatch?: never;
}

/** A follower of a fetched batch at once (one partition, in order), applying many events in one statement. */
interface BatchByBatch extends SubscriptionBase {
  /** Must be idempotent: a failure leaves the batch's offsets uncommitted and its events come again. */
  handleBatch(events: EventEnvelope[]): Promise<void>;
  handle?: never;
}

/** What a follower handles: each event, or each fetched batch, never both. */
export type Subscription = EventByEvent | BatchByBatch;

/** Records the last version of each stream a follower applied, by topic. */
export interface AppliedPositions {
  record(groupId: string, topic: string, events: readonly EventEnvelope[]): Promise<void>;
}

/** The followers of this process that record their positions: a read waits only for the events one of them follows. */
const recording = new Map<EventSubscriber, Subscription>();

/** The consumer groups of this process that follow events of `type` on `topic` and record how far they applied them. */
export const groupsFollowing = (topic: string, type: string): string[] =>
  [...recording.values()]
    .filter((subscription) => subscription.topics.includes(topic) && (!subscription.types || subscription.types.includes(type)))
    .map((subscription) => subscription.groupId);

/** The id of the request that appended a message's event, carried in its headers. */
const requestIdOf = (message: KafkaMessage): string | undefined => carriedRequestId(message.headers?.[REQUEST_ID_EVENT_HEADER]?.toString());

/** Every subscriber started in this process, and whether it is a member of its group now (readiness waits for all). */
const memberships = new Map<EventSubscriber, { groupId: string; joined: boolean }>();

export const consumerGroups = (): { groupId: string; joined: boolean }[] => [...memberships.values()].map((membership) => ({ ...membership }));

/**
 * Delivers a topic's events to a handler, at least once, in order per key. kafkajs directly rather than NestJS's
 * Kafka transport: an event handler's failure must leave the offset uncommitted so the event is redelivered.
 */
export class EventSubscriber {
  private consumer?: Consumer;
  private readonly logger = rootLogger();

  constructor(
    private readonly kafka: Kafka,
    private readonly subscription: Subscription,
    private readonly system = systemOf(),
  ) {}

  /** Resolves once the consumer has joined its group, so that a service takes traffic only with its subscriptions live. */
  async start(joinTimeoutMs = 60_000): Promise<void> {
    // A short session: after a kill -9 the group waits out the dead member's session before a restart can rejoin.
    const consumer = this.kafka.consumer({
      groupId: this.subscription.groupId,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
      // The broker answers a fetch as soon as an event arrives; an idle one is held this long, and a stopping consumer
      // waits for it (kafkajs cannot abort it): 1 s rather than 5 keeps a shutdown short for one idle fetch a second.
      maxWaitTimeInMs: 1000,
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    const { groupId } = this.subscription;
    const membership = { groupId, joined: false };
    memberships.set(this, membership);
    // A crash leaves the group until kafkajs has restarted the consumer and it has joined again.
    consumer.on(consumer.events.CRASH, () => (membership.joined = false));
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      messagesConsumed.inc({ group: groupId, topic: payload.topic }, payload.batchSize);
      recordConsumerLag(groupId, payload.topic, payload.partition, Number(payload.offsetLag));
    });
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${groupId} did not join its group in ${joinTimeoutMs} ms`)), joinTimeoutMs);
      consumer.on(consumer.events.GROUP_JOIN, () => {
        membership.joined = true;
        clearTimeout(timer);
        resolve();
      });
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.subscription.topics, fromBeginning: this.subscription.fromBeginning ?? true });
    const subscription = this.subscription;
    const { positions } = subscription;
    if (positions) recording.set(this, subscription);
    // Always batch by batch (kafkajs's eachMessage is this loop too): how far the handled events reached is recorded once
    // per fetched batch rather than once per event, then their offsets are resolved.
    await consumer.run({
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const handled: EventEnvelope[] = [];
        let lastDone: string | undefined;
        try {
          if (subscription.handleBatch) {
            const followed = batch.messages.flatMap((message) => {
              const event = this.followed(message);
              return event ? [{ message, event }] : [];
            });
            if (followed.length > 0) await this.handleAll(batch.topic, followed, subscription);
            handled.push(...followed.map(({ event }) => event));
            lastDone = batch.messages[batch.messages.length - 1]?.offset;
            return;
          }
          for (const message of batch.messages) {
            // A rebalance took the partition, or the consumer is stopping: what is left comes again, to whoever has it.
            if (!isRunning() || isStale()) return;
            const event = this.followed(message);
            if (event) {
              await this.handle(batch.topic, message, event, subscription);
              handled.push(event);
            }
            lastDone = message.offset;
            await heartbeat();
          }
        } finally {
          // Also after a failure: what was handled before it is recorded, and comes again only with the rest.
          if (handled.length > 0) await positions?.record(groupId, batch.topic, handled);
          if (lastDone !== undefined) resolveOffset(lastDone);
          await heartbeat();
        }
      },
    });
    await joined;
  }

  /**
   * One event, handled as part of the request that appended it: its log lines carry the request's id (Kafka header
   * `request-id`), its span is a child of the publish span (docs/operations.md "Logs and traces"), and one line says it
   * was handled.
   */
  private async handle(topic: string, message: KafkaMessage, event: EventEnvelope, subscription: EventByEvent): Promise<void> {
    const requestId = requestIdOf(message);
    const started = performance.now();
    const handle = () => inSpan(`${topic} process`, SpanKind.CONSUMER, contextOf(message.headers), this.spanAttributes, () => subscription.handle(event));
    await (requestId ? withRequest({ requestId }, handle) : handle());
    this.logHandled(topic, message, event, performance.now() - started);
  }

  /**
   * A fetched batch handled at once: each event still has its own span, child of its publish span and as long as the
   * batch's work, and its own line, as if handled alone (the batch's size beside it).
   */
  private async handleAll(topic: string, followed: { message: KafkaMessage; event: EventEnvelope }[], subscription: BatchByBatch): Promise<void> {
    const started = performance.now();
    const spans = followed.map(({ message }) => startSpan(`${topic} process`, SpanKind.CONSUMER, contextOf(message.headers), this.spanAttributes));
    try {
      await subscription.handleBatch(followed.map(({ event }) => event));
    } catch (error) {
      for (const span of spans) endSpan(span, error);
      throw error;
    }
    for (const span of spans) endSpan(span);
    const latencyMs = performance.now() - started;
    for (const { message, event } of followed) this.logHandled(topic, message, event, latencyMs, followed.length);
  }

  private get spanAttributes(): Record<string, string> {
    return { 'messaging.system': 'kafka', 'messaging.consumer.group.name': this.subscription.groupId };
  }

  private logHandled(topic: string, message: KafkaMessage, event: EventEnvelope, latencyMs: number, batchSize?: number): void {
    const requestId = requestIdOf(message);
    this.logger.info(
      {
        group: this.subscription.groupId,
        topic,
        type: event.type,
        event_id: event.event_id,
        latency_ms: Math.round(latencyMs * 10) / 10,
        ...(batchSize !== undefined && { batch_size: batchSize }),
        ...(requestId && { request_id: requestId }),
      },
      'event handled',
    );
  }

  /** The event a message carries, if it is this system's and of a followed type. */
  private followed(message: KafkaMessage): EventEnvelope | undefined {
    if (!message.value) return undefined;
    const system = message.headers?.[SYSTEM_HEADER]?.toString();
    if (system !== undefined && system !== this.system) return undefined;
    const { types } = this.subscription;
    // The outbox names each event's type in a header: an event not followed is passed over without parsing it.
    const headerType = message.headers?.['event-type']?.toString();
    if (types && headerType !== undefined && !types.includes(headerType)) return undefined;
    const event = JSON.parse(message.value.toString()) as EventEnvelope;
    return types && !types.includes(event.type) ? undefined : event;
  }

  async stop(): Promise<void> {
    memberships.delete(this);
    recording.delete(this);
    await this.consumer?.disconnect();
  }
}
