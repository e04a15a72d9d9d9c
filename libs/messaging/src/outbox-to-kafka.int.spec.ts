import { randomBytes, randomUUID } from 'node:crypto';
import { Consumer, Kafka, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventEnvelope, Tenant } from '@pixauto/contracts';
import { createIdempotentProducer, createKafka, ensureTopics, KafkaOutboxSink } from '@pixauto/messaging';
import { createTestDataSource, dropTestDataSource } from '../../event-store/src/testing/test-database';
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

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  for (const deadline = performance.now() + timeoutMs; performance.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${timeoutMs} ms`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
      const [event] = await store.append({ streamId, streamType: 'test', expectedVersion: version, events: [{ type: 'thing.happened', data: { version } }], tenant, occurredAt: now, topic });
      eventIds.push(event.eventId);
    }
  }
  return { streamIds, eventIds };
}

const receivedOf = (eventIds: string[]) => received.filter((message) => eventIds.includes(message.eventId));
const outboxRows = async () => Number((await dataSource.query('SELECT count(*) FROM outbox'))[0].count);

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

    await eventually(() => receivedOf(eventIds).length === eventIds.length);
    await eventually(async () => (await outboxRows()) === 0);
    await publisher.stop();

    const messages = receivedOf(eventIds);
    expect(messages.every((message) => message.key === message.envelope.stream_id)).toBe(true);
    for (const streamId of streamIds) {
      expect(messages.filter((message) => message.key === streamId).map((message) => message.envelope.version)).toEqual([1, 2, 3, 4]);
    }
    expect(new Set(messages.map((message) => message.eventId))).toEqual(new Set(eventIds));
  });

  it('lets only one of two publishers on the same database publish, and the other take over when it stops', async () => {
    const second = new DataSource({ ...dataSource.options });
    otherDataSources.push(second);
    await second.initialize();
    const sinks = [new CountingSink(new KafkaOutboxSink(producer)), new CountingSink(new KafkaOutboxSink(producer))];
    const first = await appendInterleaved(2, 5);

    const pair = [startPublisher(dataSource, sinks[0], { lockKey: 1002 }), startPublisher(second, sinks[1], { lockKey: 1002 })];
    await eventually(() => receivedOf(first.eventIds).length === first.eventIds.length);
    await sleep(1500); // both publishers have polled at least once more

    const holder = sinks[0].sent.length > 0 ? 0 : 1;
    const standby = 1 - holder;
    expect(sinks[standby].sent).toEqual([]);
    expect(receivedOf(first.eventIds)).toHaveLength(first.eventIds.length);

    await pair[holder].stop();
    const later = await appendInterleaved(2, 2);
    await eventually(() => receivedOf(later.eventIds).length === later.eventIds.length, 8_000);
    await eventually(async () => (await outboxRows()) === 0);
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
    await eventually(() => errors.length === 1);
    expect(await outboxRows()).toBe(3);
    expect(receivedOf(eventIds)).toEqual([]);

    await eventually(() => receivedOf(eventIds).length === 3);
    await eventually(async () => (await outboxRows()) === 0);
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
    await eventually(() => receivedOf(eventIds).length === 4);
    await eventually(async () => (await outboxRows()) === 0);
    await publisher.stop();

    expect(receivedOf(eventIds).map((message) => message.envelope.version)).toEqual([1, 2, 1, 2]);
  });
});
