import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventEnvelope } from '@pixauto/contracts';
import { FollowerPositions } from '@pixauto/event-store';
import { createIdempotentProducer, createKafka, ensureTopics, EventSubscriber } from '@pixauto/messaging';
import { until } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';

// An event handler's failure in the middle of a fetched batch: what was handled before it is recorded as applied (the
// reads of read-your-writes wait on it), the failed event and the rest come again, in order. Real Kafka and PostgreSQL.

const run = randomBytes(4).toString('hex');
const topic = `pixauto.test.subscriber.${run}`;
const group = `pixauto-test-subscriber-${run}`;
let dataSource: DataSource;
let kafka: Kafka;
let producer: Producer;
let subscriber: EventSubscriber | undefined;

beforeAll(async () => {
  dataSource = await createTestDataSource('subscriber', []);
  kafka = createKafka(`subscriber-test-${run}`);
  await ensureTopics(kafka, [{ name: topic, partitions: 1, retentionMs: 60 * 60 * 1000 }]);
  producer = createIdempotentProducer(kafka);
  await producer.connect();
});

afterAll(async () => {
  await subscriber?.stop();
  await producer?.disconnect();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).finally(() => admin.disconnect());
  await dropTestDataSource(dataSource);
});

const event = (stream: string): EventEnvelope => ({
  event_id: randomUUID(),
  type: 'thing.happened',
  stream_id: stream,
  version: 1,
  tenant: { account_id: 'acc-1', environment: 'sandbox' },
  occurred_at: '2026-11-26T12:00:00.000Z',
  data: {},
});
const appliedStreams = async (): Promise<string[]> =>
  (await dataSource.query('SELECT stream_id FROM follower_positions WHERE consumer_group = $1 ORDER BY stream_id', [group])).map(
    (row: { stream_id: string }) => row.stream_id,
  );

it('records what a batch handled before a failure, and delivers the failed event and the rest again, in order', async () => {
  const events = ['s1', 's2', 's3'].map(event);
  // One send: the three are fetched in one batch.
  await producer.send({ topic, acks: -1, messages: events.map((e) => ({ key: 'one-key', value: JSON.stringify(e) })) });
  const handled: string[] = [];
  let failures = 0;
  let appliedAtRetry: string[] | undefined;
  subscriber = new EventSubscriber(kafka, {
    groupId: group,
    topics: [topic],
    positions: new FollowerPositions(dataSource),
    handle: async (e) => {
      if (e.stream_id === 's2' && failures === 0) {
        failures++;
        throw new Error('the database went away for a moment');
      }
      if (e.stream_id === 's2') appliedAtRetry = await appliedStreams();
      handled.push(e.stream_id);
    },
  });
  await subscriber.start();
  await until(() => handled.includes('s3'), { timeoutMs: 30_000, what: 'every event handled' });

  expect(failures).toBe(1);
  expect(appliedAtRetry).toEqual(['s1']);
  // s1 may come again (at least once), never after s2, and nothing is skipped or handled out of order.
  expect(handled.filter((stream, i) => stream !== handled[i - 1])).toEqual(expect.arrayContaining(['s1', 's2', 's3']));
  expect(handled.indexOf('s2')).toBeLessThan(handled.indexOf('s3'));
  expect(handled.lastIndexOf('s1')).toBeLessThan(handled.indexOf('s2'));
  await until(async () => (await appliedStreams()).length === 3, { timeoutMs: 10_000, what: 'the positions recorded' });
  expect(await appliedStreams()).toEqual(['s1', 's2', 's3']);
});
