import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { eventually } from '@pixauto/testing';
import { RunningSystem, startSystem, WITHIN_SECONDS } from './support/running-system';
import { openAccount, RECURRENCES, recurrenceBody } from './support/recurrences';

// Traces (docs/operations.md "Logs and traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, the apps export over OTLP/HTTP,
// and one recurrence create is one trace: the gateway's HTTP span → recurrence-service's RPC span → the outbox's
// publish span → solicitation-service's consumer span, each the parent of the next. A small OTLP receiver stands in for
// a collector.

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

const spans: ReceivedSpan[] = [];
let receiver: Server;
let system: RunningSystem;
const saved = { endpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, delay: process.env.OTEL_BSP_SCHEDULE_DELAY };

interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[] }[];
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const received = JSON.parse(body) as OtlpExport;
      for (const resource of received.resourceSpans) {
        const service = resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '';
        for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ service, ...span });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The apps inherit the test's environment (system.cjs).
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  system = await startSystem();
});

afterAll(async () => {
  await system?.stop();
  receiver?.close();
  for (const [name, value] of [
    ['OTEL_EXPORTER_OTLP_ENDPOINT', saved.endpoint],
    ['OTEL_BSP_SCHEDULE_DELAY', saved.delay],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

it('makes one recurrence create one trace across the gateway, the service, the outbox and a consumer', async () => {
  const merchant = await openAccount(system);
  const response = await fetch(`http://127.0.0.1:${system.profile.gateway}${RECURRENCES}`, {
    method: 'POST',
    headers: { authorization: merchant.production, 'content-type': 'application/json', 'x-request-id': `e2e-trace-${randomUUID()}` },
    body: JSON.stringify(recurrenceBody()),
  });
  expect(response.status).toBe(201);

  const find = (service: string, kind: number, name: string, parent?: ReceivedSpan) =>
    spans.find((span) => span.service === service && span.kind === kind && span.name === name && (!parent || span.parentSpanId === parent.spanId));
  const chainSoFar = (): (ReceivedSpan | undefined)[] => {
    const http = spans.find((span) => span.service === 'gateway' && span.kind === SERVER && span.name === `POST ${RECURRENCES}`);
    const rpc = http && find('recurrence-service', SERVER, 'recurrences.create', http);
    const publish = rpc && find('recurrence-service', PRODUCER, 'pixauto.recurrences.events.v1 publish', rpc);
    const consume = publish && find('solicitation-service', CONSUMER, 'pixauto.recurrences.events.v1 process', publish);
    return [http, rpc, publish, consume];
  };
  const chain = await eventually(chainSoFar, (links) => links[3] !== undefined, { ...WITHIN_SECONDS, what: 'the trace from the request to its consumer' });
  expect(chain.map((span) => span?.name)).toEqual([
    `POST ${RECURRENCES}`,
    'recurrences.create',
    'pixauto.recurrences.events.v1 publish',
    'pixauto.recurrences.events.v1 process',
  ]);
  expect(new Set(chain.map((span) => span?.traceId)).size).toBe(1);
});
