import { randomBytes, randomUUID } from 'node:crypto';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Kafka, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventEnvelope, Tenant } from '@pixauto/contracts';
import { EventStore, OutboxPublisher } from '@pixauto/event-store';
import { createIdempotentProducer, createKafka, ensureTopics, EventSubscriber, KafkaOutboxSink } from '@pixauto/messaging';
import { currentRequest, registerTracing, Tracing, tracer, withRequest } from '@pixauto/telemetry';
import { until } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';

// One trace across the asynchronous hop (docs/operations.md "Logs and traces"): a service's span appends an event; its
// trace context is stored with the outbox row, the publisher's span is its child and travels in the Kafka headers, and
// the consumer's span is the publisher's child, with the request's id bound to the handling. Real PostgreSQL and Kafka;
// the SDK's in-memory exporter stands in for OTLP.

const run = randomBytes(4).toString('hex');
const topic = `pixauto.test.tracing.${run}`;
const tenant: Tenant = { accountId: 'acc_tracing_test', environment: 'sandbox' };
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let dataSource: DataSource;
let kafka: Kafka;
let producer: Producer;
let publisher: OutboxPublisher;
let subscriber: EventSubscriber;

beforeAll(async () => {
  tracing = registerTracing('tracing-test', exporter, { batch: false });
  dataSource = await createTestDataSource('tracing', []);
  kafka = createKafka(`tracing-test-${run}`);
  await ensureTopics(kafka, [{ name: topic, partitions: 1, retentionMs: 60 * 60 * 1000 }]);
  producer = createIdempotentProducer(kafka);
  await producer.connect();
});

afterAll(async () => {
  await publisher?.stop();
  await subscriber?.stop();
  await producer?.disconnect();
  if (kafka) {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).finally(() => admin.disconnect());
  }
  if (dataSource) await dropTestDataSource(dataSource);
  await tracing?.shutdown();
});

it('makes the consumer span a child of the outbox publish span, itself a child of the span that appended the event, in one trace', async () => {
  const handled: { spanId?: string; traceId?: string; requestId?: string; event: EventEnvelope }[] = [];
  subscriber = new EventSubscriber(kafka, {
    groupId: `pixauto-test-tracing-${run}`,
    topics: [topic],
    handle: async (event) => {
      const active = trace.getActiveSpan()?.spanContext();
      handled.push({ spanId: active?.spanId, traceId: active?.traceId, requestId: currentRequest()?.requestId, event });
    },
  });
  await subscriber.start();

  const requestId = `trace-${randomUUID()}`;
  const streamId = `test:${randomUUID()}`;
  const rpc = tracer().startSpan('recurrences.create', { kind: SpanKind.SERVER });
  await withRequest({ requestId }, () =>
    context.with(trace.setSpan(context.active(), rpc), () =>
      new EventStore(dataSource).append({
        streamId,
        streamType: 'test',
        expectedVersion: 0,
        events: [{ type: 'thing.happened', data: {} }],
        tenant,
        occurredAt: new Date('2026-01-02T03:04:05Z'),
        topic,
      }),
    ),
  );
  rpc.end();
  const [stored] = await dataSource.query('SELECT headers FROM outbox');
  expect(stored.headers).toEqual(expect.objectContaining({ 'request-id': requestId, traceparent: expect.stringContaining(rpc.spanContext().spanId) }));

  publisher = new OutboxPublisher(dataSource, new KafkaOutboxSink(producer), { lockKey: 2001, idleMs: 50 });
  publisher.start();
  await until(() => handled.length > 0, { timeoutMs: 15_000, what: 'the event handled' });
  expect(handled).toHaveLength(1);

  const spans = exporter.getFinishedSpans();
  const only = (kind: SpanKind): ReadableSpan => {
    const found = spans.filter((span) => span.kind === kind);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const [server, producerSpan, consumerSpan] = [only(SpanKind.SERVER), only(SpanKind.PRODUCER), only(SpanKind.CONSUMER)];
  const traceId = rpc.spanContext().traceId;
  expect([server, producerSpan, consumerSpan].map((span) => span.spanContext().traceId)).toEqual([traceId, traceId, traceId]);
  expect(producerSpan.name).toBe(`${topic} publish`);
  expect(producerSpan.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  expect(consumerSpan.name).toBe(`${topic} process`);
  expect(consumerSpan.parentSpanContext?.spanId).toBe(producerSpan.spanContext().spanId);
  // The handler ran inside the consumer's span and the request that appended the event.
  expect(handled[0]).toEqual(expect.objectContaining({ spanId: consumerSpan.spanContext().spanId, traceId, requestId }));
});

it('gives each event of a batch handled at once its own consumer span, child of its own publish span', async () => {
  await subscriber.stop();
  await publisher.stop();
  exporter.reset();
  const batches: EventEnvelope[][] = [];
  subscriber = new EventSubscriber(kafka, {
    groupId: `pixauto-test-tracing-batch-${run}`,
    topics: [topic],
    fromBeginning: false,
    handleBatch: async (events) => void batches.push(events),
  });
  await subscriber.start();

  const appendIn = async (name: string) => {
    const span = tracer().startSpan(name, { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(context.active(), span), () =>
      new EventStore(dataSource).append({
        streamId: `test:${randomUUID()}`,
        streamType: 'test',
        expectedVersion: 0,
        events: [{ type: 'thing.happened', data: {} }],
        tenant,
        occurredAt: new Date('2026-01-02T03:04:05Z'),
        topic,
      }),
    );
    span.end();
    return span.spanContext().spanId;
  };
  const servers = [await appendIn('first'), await appendIn('second')];
  publisher = new OutboxPublisher(dataSource, new KafkaOutboxSink(producer), { lockKey: 2001, idleMs: 50 });
  publisher.start();
  await until(() => batches.flat().length === 2, { timeoutMs: 15_000, what: 'both events handled' });

  const spans = exporter.getFinishedSpans();
  const childOf = (parent: string | undefined) => spans.find((span) => span.parentSpanContext?.spanId === parent);
  const chains = servers.map((server) => {
    const publish = childOf(server);
    return [publish?.name, childOf(publish?.spanContext().spanId)?.name];
  });
  expect(chains).toEqual([
    [`${topic} publish`, `${topic} process`],
    [`${topic} publish`, `${topic} process`],
  ]);
  expect(spans.filter((span) => span.kind === SpanKind.CONSUMER)).toHaveLength(2);
});
