/**
 * Gateway -> service transport benchmark: HTTP (Fastify + undici), NestJS TCP, NestJS Kafka request-reply.
 *
 * The service runs in a child process so gateway (client) and service (server) are separate processes,
 * as in production. Each transport: warm-up, then a closed loop of CONCURRENCY in-flight requests for
 * BENCH_SECONDS, then a sequential pass (concurrency 1) for base latency. Prints a markdown table.
 *
 * Usage: npm run bench:transport
 * Env:   BENCH_TRANSPORTS=http,tcp,kafka  BENCH_SECONDS=10  KAFKA_BROKERS=127.0.0.1:9092
 *        BENCH_SMOKE=1: 1 s per pass and of warm-up (what `npm test` runs). A transport not measured fails the run.
 */
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { AddressInfo, createConnection, createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ClientKafka, ClientProxyFactory, KafkaOptions, MessagePattern, MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { lastValueFrom } from 'rxjs';
import { Pool } from 'undici';

type TransportName = 'http' | 'tcp' | 'kafka';
interface Client {
  call(): Promise<unknown>;
  close(): Promise<unknown>;
}
interface Stats {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
}

const HOST = '127.0.0.1';
const PATTERN = 'bench.transport.echo'; // Kafka request topic; ClientKafka replies on `${PATTERN}.reply`
const TRANSPORTS = (process.env.BENCH_TRANSPORTS ?? 'http,tcp,kafka').split(',') as TransportName[];
const SMOKE = process.env.BENCH_SMOKE === '1';
const SECONDS = Math.min(Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10)), 60);
const WARMUP_SECONDS = SMOKE ? 1 : 3;
const CONCURRENCY = 50;
const MAX_REQUESTS = 2_000_000; // hard bound per pass, on top of the time bound
const REQUEST_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 90_000; // Kafka group joins/rebalances take a while
const BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
// The service handles one message at a time per partition (and awaits its reply), so request
// partitions = service-side parallelism. The single gateway consumer replies on its lowest partition.
const KAFKA_PARTITIONS = 6;

const TENANT_HEADERS = { 'x-tenant-id': 'tenant-0001', 'x-tenant-ispb': '12345678' };
// ~300 bytes, shaped like a customer-limit command.
const COMMAND = {
  document_number: '12345678000190',
  type: 'PIX_AUTOMATICO',
  mechanism: 'NIGHTTIME',
  amount: '1500.00',
  details: {
    reason: 'customer requested a new nighttime limit',
    channel: 'MOBILE_APP',
    requested_at: '2025-01-15T22:30:00.000Z',
    request_id: '3f1c5a0e-9b7d-4c2a-8e6f-1a2b3c4d5e6f',
    merchant_id: 'merchant-000042',
  },
};

function kafkaOptions(clientId: string): NonNullable<KafkaOptions['options']> {
  return {
    client: { clientId, brokers: BROKERS, logLevel: logLevel.WARN },
    // Short session so a killed run's member leaves the group quickly and the next run joins fast.
    consumer: { groupId: 'bench-transport', sessionTimeout: 10_000, heartbeatInterval: 1_000 },
    producer: { createPartitioner: Partitioners.DefaultPartitioner },
  };
}

// ---------------------------------------------------------------- service (child process)

@Controller()
class EchoController {
  @Post('echo')
  @HttpCode(200)
  http(@Body() body: unknown): unknown {
    return body;
  }

  @MessagePattern(PATTERN)
  message(@Payload() data: unknown): unknown {
    return data;
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

async function serve(transport: TransportName, port: number): Promise<void> {
  process.on('disconnect', () => process.exit(0)); // never outlive the benchmark process
  const logger = ['error' as const, 'warn' as const];
  let app: { close(): Promise<void> };
  if (transport === 'http') {
    const http = await NestFactory.create(EchoModule, new FastifyAdapter(), { logger });
    await http.listen(port, HOST);
    app = http;
  } else {
    const options: MicroserviceOptions =
      transport === 'tcp'
        ? { transport: Transport.TCP, options: { host: HOST, port } }
        : {
            transport: Transport.KAFKA,
            options: { ...kafkaOptions('bench-service'), run: { partitionsConsumedConcurrently: KAFKA_PARTITIONS } },
          };
    const microservice = await NestFactory.createMicroservice<MicroserviceOptions>(EchoModule, { ...options, logger });
    await microservice.listen();
    app = microservice;
  }
  // Graceful stop lets the Kafka consumer leave its group instead of waiting for the session timeout.
  process.on('message', (msg) => msg === 'stop' && void app.close().finally(() => process.exit(0)));
  process.send?.('ready');
}

// ---------------------------------------------------------------- gateway (parent process)

const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function startService(transport: TransportName, port: number): { child: ChildProcess; ready: Promise<void> } {
  const child = fork(__filename, ['serve', transport, String(port)], { stdio: 'inherit' });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${transport} service not ready`)), READY_TIMEOUT_MS);
    child.once('message', () => (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${transport} service exited: ${code}`))));
  });
  return { child, ready };
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('stop');
  await Promise.race([exited, sleep(10_000)]);
  child.kill('SIGKILL');
}

async function connect(transport: TransportName, port: number): Promise<Client> {
  if (transport === 'http') {
    const pool = new Pool(`http://${HOST}:${port}`, { connections: 64 });
    const request = {
      path: '/echo',
      method: 'POST' as const,
      headers: { ...TENANT_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify(COMMAND),
    };
    return {
      async call() {
        const res = await pool.request(request);
        const body = await res.body.json(); // always drain the body so the connection is reused
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
        return body;
      },
      close: () => pool.close(),
    };
  }
  if (transport === 'tcp') {
    const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: HOST, port } });
    await client.connect();
    // TCP has no headers: the tenant travels in the message envelope.
    const message = { headers: TENANT_HEADERS, body: COMMAND };
    return { call: () => lastValueFrom(client.send(PATTERN, message)), close: async () => client.close() };
  }
  const client = new ClientKafka(kafkaOptions('bench-gateway'));
  client.subscribeToResponseOf(PATTERN);
  await client.connect();
  // Fresh record and headers per call: ClientKafka writes the correlation id into the passed headers object.
  const record = () => ({ headers: { ...TENANT_HEADERS }, value: COMMAND });
  return { call: () => lastValueFrom(client.send(PATTERN, record())), close: () => client.close() };
}

/** Creates the request and reply topics (the broker does not auto-create topics). */
async function ensureKafkaTopics(): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-admin', brokers: BROKERS, logLevel: logLevel.WARN }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const topics = [PATTERN, `${PATTERN}.reply`].filter((topic) => !existing.has(topic)).map((topic) => ({ topic, numPartitions: KAFKA_PARTITIONS }));
    if (topics.length) await admin.createTopics({ topics, waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

function reachable(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = createConnection({ host, port: Number(port), timeout: 2_000 });
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket
      .once('connect', () => done(true))
      .once('error', () => done(false))
      .once('timeout', () => done(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

function withTimeout<T>(promise: Promise<T>, ms = REQUEST_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The Kafka request is lost if sent before the service's consumer has joined, so retry until answered. */
async function untilAnswering(client: Client): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      return void (await withTimeout(client.call(), 3_000));
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

/** Closed loop: `concurrency` workers each keep one request in flight until time or count runs out. */
async function load(client: Client, concurrency: number, seconds: number): Promise<Stats> {
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(seconds * 1e9);
  const worker = async () => {
    while (issued < MAX_REQUESTS && process.hrtime.bigint() < deadline) {
      issued++;
      const t0 = process.hrtime.bigint();
      try {
        await withTimeout(client.call());
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.max(0, Math.ceil(p * latencies.length) - 1)] ?? NaN;
  return { rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99), ok: latencies.length, errors };
}

async function measure(transport: TransportName): Promise<{ c50: Stats; c1: Stats }> {
  if (transport === 'kafka') {
    if (!(await reachable(BROKERS[0]))) throw new Error(`broker ${BROKERS[0]} not reachable`);
    await ensureKafkaTopics();
  }
  const port = transport === 'kafka' ? 0 : await freePort();
  const { child, ready } = startService(transport, port);
  let client: Client | undefined;
  try {
    await ready;
    client = await withTimeout(connect(transport, port), READY_TIMEOUT_MS);
    await untilAnswering(client);
    await load(client, CONCURRENCY, WARMUP_SECONDS);
    const c50 = await load(client, CONCURRENCY, SECONDS);
    const c1 = await load(client, 1, SECONDS);
    return { c50, c1 };
  } finally {
    await withTimeout(client?.close() ?? Promise.resolve(), 10_000).catch(() => undefined);
    await stopService(child);
  }
}

async function main(): Promise<void> {
  // Whole-run watchdog: the process always ends by itself (the exit hook kills the children).
  setTimeout(() => (console.error('watchdog: run exceeded 10 min'), process.exit(1)), 600_000).unref();
  // Load average is printed because other processes on the machine skew the figures.
  console.log(
    `node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}, ${SECONDS}s per pass, ` +
      `concurrency ${CONCURRENCY} and 1, payload ${JSON.stringify(COMMAND).length} B`,
  );
  const rows: string[] = [];
  let failures = 0;
  const ms = (value: number) => value.toFixed(2);
  for (const transport of TRANSPORTS) {
    try {
      const { c50, c1 } = await measure(transport);
      console.log(transport, JSON.stringify({ c50, c1 }));
      rows.push(
        `| ${transport} | ${c50.rps.toFixed(0)} | ${ms(c50.p50)} | ${ms(c50.p99)} | ${c1.rps.toFixed(0)} | ${ms(c1.p50)} | ${ms(c1.p99)} | ${c50.errors + c1.errors} |`,
      );
    } catch (error) {
      failures++;
      console.error(`${transport}: not measured:`, error);
      rows.push(`| ${transport} | not measured: ${(error as Error).message} | | | | | | |`);
    }
  }
  console.log(
    [
      '',
      '| transport | c=50 req/s | c=50 p50 ms | c=50 p99 ms | c=1 req/s | c=1 p50 ms | c=1 p99 ms | errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
  if (failures > 0) throw new Error(`${failures} transport(s) not measured`);
}

if (process.argv[2] === 'serve') {
  serve(process.argv[3] as TransportName, Number(process.argv[4])).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (error) => (console.error(error), process.exit(1)),
  );
}
