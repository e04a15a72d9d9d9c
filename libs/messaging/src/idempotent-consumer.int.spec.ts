import { randomBytes, randomUUID } from 'node:crypto';
import { Consumer, Kafka, Producer } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { createIdempotentProducer, createKafka, ensureTopics } from '@pixauto/messaging';
import { createTestDataSource, dropTestDataSource, waitForSession } from '@pixauto/event-store/testing';
import { until } from '@pixauto/testing';
import { processOnce } from '@pixauto/event-store';

// processOnce against a real PostgreSQL database: the handler's writes are the `effects` rows of this test.

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await createTestDataSource('consumer', []);
  await dataSource.query('CREATE TABLE effects (consumer text NOT NULL, message_id text NOT NULL)');
});

afterAll(() => dropTestDataSource(dataSource));

const count = async (sql: string, params: unknown[]): Promise<number> => Number((await dataSource.query(sql, params))[0].count);
const effectsOf = (messageId: string) => count('SELECT count(*) FROM effects WHERE message_id = $1', [messageId]);
const ledgerRowsOf = (messageId: string) => count('SELECT count(*) FROM processed_messages WHERE message_id = $1', [messageId]);
const recordEffect = (consumer: string, messageId: string) => (tx: EntityManager) =>
  tx.query('INSERT INTO effects (consumer, message_id) VALUES ($1, $2)', [consumer, messageId]);

describe('processOnce (PostgreSQL)', () => {
  it('runs the handler once for the same consumer and message, even when two deliveries race', async () => {
    const messageId = randomUUID();
    let runs = 0;
    const handler = async (tx: EntityManager) => {
      runs++;
      await recordEffect('billing', messageId)(tx);
      await tx.query('SELECT pg_sleep(0.2)');
    };

    const first = processOnce(dataSource, 'billing', messageId, handler);
    await waitForSession(dataSource, 'PgSleep');
    const second = processOnce(dataSource, 'billing', messageId, handler);
    await waitForSession(dataSource, 'Lock');

    expect(await Promise.all([first, second])).toEqual([true, false]);
    expect(runs).toBe(1);
    expect(await effectsOf(messageId)).toBe(1);
    expect(await processOnce(dataSource, 'billing', messageId, handler)).toBe(false);
    expect(runs).toBe(1);
  });

  it('leaves no ledger row and none of its writes when the handler throws, so a redelivery processes the message', async () => {
    const messageId = randomUUID();
    const failure = new Error('downstream unavailable');

    await expect(
      processOnce(dataSource, 'billing', messageId, async (tx) => {
        await recordEffect('billing', messageId)(tx);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ledgerRowsOf(messageId)).toBe(0);
    expect(await effectsOf(messageId)).toBe(0);

    expect(await processOnce(dataSource, 'billing', messageId, recordEffect('billing', messageId))).toBe(true);
    expect(await effectsOf(messageId)).toBe(1);
  });

  it('lets a racing delivery process the message when the first attempt fails', async () => {
    const messageId = randomUUID();
    const failing = processOnce(dataSource, 'billing', messageId, async (tx) => {
      await tx.query('SELECT pg_sleep(0.3)');
      throw new Error('first attempt fails');
    });
    await waitForSession(dataSource, 'PgSleep');
    const racing = processOnce(dataSource, 'billing', messageId, recordEffect('billing', messageId));
    await waitForSession(dataSource, 'Lock');

    await expect(failing).rejects.toThrow('first attempt fails');
    expect(await racing).toBe(true);
    expect(await effectsOf(messageId)).toBe(1);
    expect(await ledgerRowsOf(messageId)).toBe(1);
  });

  it('processes the same message independently for different consumers', async () => {
    const messageId = randomUUID();

    expect(await processOnce(dataSource, 'billing', messageId, recordEffect('billing', messageId))).toBe(true);
    expect(await processOnce(dataSource, 'notifications', messageId, recordEffect('notifications', messageId))).toBe(true);
    expect(await processOnce(dataSource, 'billing', messageId, recordEffect('billing', messageId))).toBe(false);

    expect(await dataSource.query('SELECT consumer FROM effects WHERE message_id = $1 ORDER BY consumer', [messageId])).toEqual([
      { consumer: 'billing' },
      { consumer: 'notifications' },
    ]);
  });

  describe('behind a Kafka consumer', () => {
    const run = randomBytes(4).toString('hex');
    const topic = `pixauto.test.redelivery.${run}`;
    let kafka: Kafka;
    let producer: Producer | undefined;
    let consumer: Consumer | undefined;

    beforeAll(async () => {
      kafka = createKafka(`redelivery-test-${run}`);
      await ensureTopics(kafka, [{ name: topic, partitions: 1, retentionMs: 60 * 60 * 1000 }]);
    });

    afterAll(async () => {
      await consumer?.disconnect();
      await producer?.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] }).finally(() => admin.disconnect());
    });

    it('applies the effect once when the same message is delivered twice (re-seek)', async () => {
      const messageId = randomUUID();
      producer = createIdempotentProducer(kafka);
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ key: 'stream-1', value: '{}', headers: { 'event-id': messageId } }] });
      const outcomes: boolean[] = [];
      consumer = kafka.consumer({ groupId: `pixauto-test-redelivery-${run}`, maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const id = String(message.headers?.['event-id']);
          outcomes.push(await processOnce(dataSource, 'kafka-test', id, recordEffect('kafka-test', id)));
        },
      });

      await until(() => outcomes.length === 1, { timeoutMs: 15_000, what: 'the first delivery' });
      consumer.seek({ topic, partition: 0, offset: '0' });
      await until(() => outcomes.length === 2, { timeoutMs: 15_000, what: 'the redelivery' });

      expect(outcomes).toEqual([true, false]);
      expect(await effectsOf(messageId)).toBe(1);
    });
  });
});
