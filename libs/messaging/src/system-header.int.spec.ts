import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, Producer } from 'kafkajs';
import { EventEnvelope } from '@pixauto/contracts';
import { createIdempotentProducer, createKafka, ensureTopics, EventSubscriber, KafkaOutboxSink } from '@pixauto/messaging';
import { until } from '@pixauto/testing';

// Two systems on one broker (dev beside an e2e run): each stamps its messages with its name, and a subscriber passes
// over the other's events, so no system acts on another's (against a real Kafka broker).

const run = randomBytes(4).toString('hex');
const topic = `pixauto.test.system.${run}`;
let kafka: Kafka;
let producer: Producer;
let subscriber: EventSubscriber;

beforeAll(async () => {
  kafka = createKafka(`system-test-${run}`);
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
});

const envelope = (eventId: string) => JSON.stringify({ event_id: eventId, type: 'test.happened' });

it("delivers its own system's events and messages without a system, never another system's", async () => {
  const [ours, theirs, unmarked] = [randomUUID(), randomUUID(), randomUUID()];
  await new KafkaOutboxSink(producer, 'pixauto_e2e1').send([{ id: '1', topic, key: 's', value: envelope(theirs), headers: { 'event-id': theirs } }]);
  await new KafkaOutboxSink(producer, 'pixauto').send([{ id: '2', topic, key: 's', value: envelope(ours), headers: { 'event-id': ours } }]);
  await producer.send({ topic, acks: -1, messages: [{ key: 's', value: envelope(unmarked) }] }); // written before the header existed
  const last = randomUUID();
  await new KafkaOutboxSink(producer, 'pixauto').send([{ id: '3', topic, key: 's', value: envelope(last), headers: { 'event-id': last } }]);

  const seen: string[] = [];
  subscriber = new EventSubscriber(
    kafka,
    { groupId: `pixauto-test-system-${run}`, topics: [topic], handle: async (event: EventEnvelope) => void seen.push(event.event_id) },
    'pixauto',
  );
  await subscriber.start();
  // One partition, read in order: once the message written last is seen, every one before it was delivered or passed over.
  await until(() => seen.includes(last), { timeoutMs: 15_000, what: 'the message written last' });
  expect(seen).toEqual([ours, unmarked, last]);
});
