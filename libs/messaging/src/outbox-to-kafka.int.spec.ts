import { randomBytes, randomUUID } from 'node:crypto';
import { Consumer, Kafka, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventEnvelope, Tenant } from '@pixauto/contracts';
import { createIdempotentProducer, createKafka, ensureTopics, KafkaOutboxSink } from '@pixauto/messaging';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { until } from '@pixauto/testing';
import { EventStore, OutboxMessage, OutboxPublisher, OutboxPublisherOptions, OutboxSink } from '@pixauto/event-store';

// OutboxPublisher with the Kafka sink, against real PostgreSQL and Kafka: one database and one topic per run.

const run = randomBytes(4).toString('hex');
const topic = `pixauto.test.outbox.${run}`;
const tenant: Tenant = { accountId: 'acc_outbox_test', environment: 'sandbox' };
const now = new Date('2025-11-20T12:00:00.000Z');

interface Received {
  key: string;
  eventId: string;
  envelope: EventEnvelope;
}

let dataSource: DataSource;
let store: EventStore;
let kafka: Kafka;
let producer: Producer;
let consumer: Consumer;
const received: Received[] = [];
const publishers: OutboxPublisher[] = [];
const otherDataSources: DataSource[] = [];

beforeAll(async () => {
  dataSource = await createTestDataSource('outbox', []);
  store = new EventStore(dataSource);
  kafka = createKafka(`outbox-test-${run}`);
  await ensureTopics(kafka, [{ name: topic, partitions: 3, retentionMs: 60 * 60 * 1000 }]);
  producer = createIdempotentProducer(kafka);
  await producer.connect();
  consumer = kafka.consumer({ groupId: `pixauto-test-outbox-${run}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const envelope = JSON.parse(String(message.value)) as EventEnvelope;
      received.push({ key: String(message.key), eventId: String(message.headers?.['event-id']), envelope });
    },
  });
});

afterAll(async () => {
  await Promise.all(publishers.map((publisher) => publisher.stop()));
  await consumer?.disconnect();
  await producer?.disconnect();
  if (kafka) {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).finally(() => admin.disconnect());
  }
  for (const other of otherDataSources) if (other.isInitialized) await other.destroy();
  await dropTestDataSource(dataSource);
});

/** Kafka's round trips, on a loaded machine. */
const KAFKA_TIME = { timeoutMs: 15_000 };

function startPublisher(source: DataSource, sink: OutboxSink, options: OutboxPublisherOptions): OutboxPublisher {
  const publisher = new OutboxPublisher(source, sink, { idleMs: 50, ...options });
  publishers.push(publisher);
  publisher.start();
  return publisher;
}

/** Appends `count` single-event commits to each new stream, the streams interleaved; returns the event ids. */
async function appendInterleaved(streams: number, count: number): Promise<{ streamIds: string[]; eventIds: string[] }> {
  const streamIds = Array.from({ length: streams }, () => `test:${randomUUID()}`);
  const eventIds: string[] = [];
  for (let version = 0; version < count; version++) {
    for (const streamId of streamIds) {
      const [event] = await store.append({
        streamId,
        streamType: 'test',
        expectedVersion: version,
        events: [{ type: 'thing.happened', data: { version } }],
        tenant,
        occurredAt: now,
        topic,
      });
      eventIds.push(event.eventId);
    }
  }
  return { streamIds, eventIds };
}

const receivedOf = (eventIds: string[]) => received.filter((message) => eventIds.includes(message.eventId));
const outboxRows = async () => Number((await dataSource.query('SELECT count(*) FROM outbox'))[0].count);

/** The answers `source`'s sessions got to pg_try_advisory_lock, in order (true: it took the lock). */
function lockAnswers(source: DataSource): boolean[] {
  const answers: boolean[] = [];
  const createQueryRunner = source.createQueryRunner.bind(source);
  source.createQueryRunner = (mode) => {
    const runner = createQueryRunner(mode);
    const query = runner.query.bind(runner);
    runner.query = (async (sql: string, parameters?: unknown[]) => {
      const result = await query(sql, parameters);
      if (sql.includes('pg_try_advisory_lock')) answers.push(result[0].locked === true);
      return result;
    }) as typeof runner.query;
    return runner;
  };
  return answers;
}

class CountingSink implements OutboxSink {
  readonly sent: string[] = [];
  constructor(private readonly inner: OutboxSink) {}
  async send(messages: OutboxMessage[]): Promise<void> {
    await this.inner.send(messages);
    this.sent.push(...messages.map((message) => message.headers['event-id']));
  }
}

describe('OutboxPublisher to Kafka', () => {
  it('publishes appended events keyed by stream id, in per-stream version order, and empties the outbox', async () => {
    const { streamIds, eventIds } = await appendInterleaved(3, 4);
    const publisher = startPublisher(dataSource, new KafkaOutboxSink(producer), { lockKey: 1001 });

    await until(() => receivedOf(eventIds).length === eventIds.length, KAFKA_TIME);
    await until(async () => (await outboxRows()) === 0, KAFKA_TIME);
    await publisher.stop();

    const messages = receivedOf(eventIds);
    expect(messages.every((message) => message.key === message.envelope.stream_id)).toBe(true);
    for (const streamId of streamIds) {
      expect(messages.filter((message) => message.key === streamId).map((message) => message.envelope.version)).toEqual([1, 2, 3, 4]);
    }
    expect(new Set(messages.map((message) => message.eventId))).toEqual(new Set(eventIds));
  });

  it('lets only one of two publishers on the same database publish, and the other take over when it stops', async () => {
    const sources = [new DataSource({ ...dataSource.options }), new DataSource({ ...dataSource.options })];
    otherDataSources.push(...sources);
    for (const source of sources) await source.initialize();
    const answers = sources.map(lockAnswers);
    const sinks = [new CountingSink(new KafkaOutboxSink(producer)), new CountingSink(new KafkaOutboxSink(producer))];
    const first = await appendInterleaved(2, 5);

    const pair = [startPublisher(sources[0], sinks[0], { lockKey: 1002 }), startPublisher(sources[1], sinks[1], { lockKey: 1002 })];
    await until(() => receivedOf(first.eventIds).length === first.eventIds.length, KAFKA_TIME);

    const holder = sinks[0].sent.length > 0 ? 0 : 1;
    const standby = 1 - holder;
    // The standby's next attempt at the lock, after the events went out: refused, as every one before it.
    const attempts = answers[standby].length;
    await until(() => answers[standby].length > attempts, { what: "the standby publisher's next attempt at the lock" });
    expect(answers[standby].every((took) => !took)).toBe(true);
    expect(answers[holder][0]).toBe(true);
    expect(sinks[standby].sent).toEqual([]);
    expect(receivedOf(first.eventIds)).toHaveLength(first.eventIds.length);

    await pair[holder].stop();
    const later = await appendInterleaved(2, 2);
    await until(() => receivedOf(later.eventIds).length === later.eventIds.length, {
      timeoutMs: 8_000,
      what: 'the later events, from the publisher that took over',
    });
    await until(async () => (await outboxRows()) === 0, KAFKA_TIME);
    await pair[standby].stop();

    expect(sinks[standby].sent.sort()).toEqual([...later.eventIds].sort());
    expect(receivedOf([...first.eventIds, ...later.eventIds])).toHaveLength(first.eventIds.length + later.eventIds.length);
  });

  it('keeps the rows when the sink fails, and publishes them on a later attempt', async () => {
    const kafkaSink = new KafkaOutboxSink(producer);
    let failures = 0;
    const sink: OutboxSink = {
      send: async (messages) => {
        if (failures++ === 0) throw new Error('broker unavailable');
        await kafkaSink.send(messages);
      },
    };
    const errors: unknown[] = [];
    const { eventIds } = await appendInterleaved(1, 3);

    const publisher = startPublisher(dataSource, sink, { lockKey: 1003, onError: (error) => errors.push(error) });
    await until(() => errors.length === 1, KAFKA_TIME);
    expect(await outboxRows()).toBe(3);
    expect(receivedOf(eventIds)).toEqual([]);

    await until(() => receivedOf(eventIds).length === 3, KAFKA_TIME);
    await until(async () => (await outboxRows()) === 0, KAFKA_TIME);
    await publisher.stop();
    expect(receivedOf(eventIds).map((message) => message.envelope.version)).toEqual([1, 2, 3]);
  });

  it('re-sends rows whose acknowledgement was lost (at-least-once: duplicates, never losses)', async () => {
    const kafkaSink = new KafkaOutboxSink(producer);
    let calls = 0;
    const sink: OutboxSink = {
      send: async (messages) => {
        await kafkaSink.send(messages);
        if (calls++ === 0) throw new Error('connection lost before the rows were deleted');
      },
    };
    const { eventIds } = await appendInterleaved(1, 2);

    const publisher = startPublisher(dataSource, sink, { lockKey: 1004 });
    await until(() => receivedOf(eventIds).length === 4, KAFKA_TIME);
    await until(async () => (await outboxRows()) === 0, KAFKA_TIME);
    await publisher.stop();

    expect(receivedOf(eventIds).map((message) => message.envelope.version)).toEqual([1, 2, 1, 2]);
  });
});
