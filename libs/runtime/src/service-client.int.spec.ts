import { Controller, DynamicModule, Inject, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, MicroserviceOptions, Transport } from '@nestjs/microservices';
import net, { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceReply } from '@pixauto/contracts';
import { until } from '@pixauto/testing';
import { toHttpError } from './http';
import { Resolver, ServiceClient } from './service-client';

// A service's client over real NestJS TCP replicas on loopback: requests spread over them, a replica that stops is
// left out without a failed request and used again once back, a request cut in flight is answered 503 and sent once,
// and a DNS name's addresses (127.0.0.x, all loopback on Linux) are followed as they change.

/** Messages each replica received, by its name. */
const received = new Map<string, number>();
const countOf = (name: string): number => received.get(name) ?? 0;
const REPLICA_NAME = Symbol('REPLICA_NAME');

@Controller()
class WhoAnswers {
  constructor(@Inject(REPLICA_NAME) private readonly name: string) {}

  @MessagePattern('test.who')
  who(): ServiceReply {
    received.set(this.name, countOf(this.name) + 1);
    return { status: 200, body: { replica: this.name } };
  }
}

@Module({})
class ReplicaModule {
  static named(name: string): DynamicModule {
    return { module: ReplicaModule, controllers: [WhoAnswers], providers: [{ provide: REPLICA_NAME, useValue: name }] };
  }
}

interface TestReplica {
  port: number;
  /** Stops it as a process that ends does: the listener closed and every connection with it. */
  stop(): Promise<void>;
}

const running = new Set<TestReplica>();

async function startReplica(name: string, host: string, port = 0): Promise<TestReplica> {
  const service: INestMicroservice = await NestFactory.createMicroservice<MicroserviceOptions>(ReplicaModule.named(name), {
    transport: Transport.TCP,
    options: { host, port },
    logger: false,
  });
  const server = service.unwrap<net.Server>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await service.listen();
  const replica: TestReplica = {
    port: (server.address() as AddressInfo).port,
    stop: async () => {
      running.delete(replica);
      for (const socket of sockets) socket.destroy();
      await service.close();
    },
  };
  running.add(replica);
  return replica;
}

const clients = new Set<ServiceClient>();
const clientOf = (address: string, options?: ConstructorParameters<typeof ServiceClient>[1]): ServiceClient => {
  const client = new ServiceClient(address, options);
  clients.add(client);
  return client;
};

/** The status each request was answered with (a refusal as the HTTP answer it becomes). */
const statusOf = (client: ServiceClient): Promise<number> =>
  client.send<ServiceReply>('test.who', { tenant: { accountId: 'acc_balance', environment: 'sandbox' } }, 2_000).then(
    (reply) => reply.status,
    (error: unknown) => toHttpError(error).status,
  );

/** `total` requests, `concurrency` at a time: their statuses. */
async function sendMany(client: ServiceClient, total: number, concurrency = 10): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < total; sent += concurrency) {
    statuses.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, total - sent) }, () => statusOf(client)))));
  }
  return statuses;
}

beforeEach(() => received.clear());

afterEach(async () => {
  for (const client of clients) await client.close();
  clients.clear();
  for (const replica of [...running]) await replica.stop();
});

describe('a service of several replicas, listed', () => {
  it('spreads requests over every replica, each request to one', async () => {
    const [a, b] = [await startReplica('a', '127.0.0.1'), await startReplica('b', '127.0.0.1')];
    const client = clientOf(`127.0.0.1:${a.port},127.0.0.1:${b.port}`);

    const statuses = await sendMany(client, 200);

    expect(statuses.filter((status) => status === 200)).toHaveLength(200);
    expect(countOf('a') + countOf('b')).toBe(200);
    expect(countOf('a')).toBeGreaterThanOrEqual(70);
    expect(countOf('a')).toBeLessThanOrEqual(130);
  });

  it('leaves out a replica that stopped, with no request failing, and uses it again once it is back', async () => {
    const [a, b] = [await startReplica('a', '127.0.0.1'), await startReplica('b', '127.0.0.1')];
    const client = clientOf(`127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    await sendMany(client, 20);
    expect(countOf('b')).toBeGreaterThan(0);

    await b.stop();
    // The client learns of the closed connection when its end arrives (its next poll); a request written before that
    // was sent as far as anyone can tell, and is answered 503 like any request cut in flight.
    await sleep(100);
    const beforeStop = countOf('b');
    const whileStopped = await sendMany(client, 100);

    expect(whileStopped.filter((status) => status !== 200)).toEqual([]);
    expect(countOf('b')).toBe(beforeStop);
    expect(countOf('a') + countOf('b')).toBe(120);

    await startReplica('b', '127.0.0.1', b.port);
    await until(async () => (await sendMany(client, 10)).every((status) => status === 200) && countOf('b') > beforeStop, {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'the restarted replica receiving requests again',
    });
  });

  it('answers 503 for a request whose connection dropped after it was sent, and never sends it again', async () => {
    const good = await startReplica('good', '127.0.0.1');
    let droppedAfterReading = 0;
    const sockets = new Set<Socket>();
    const dropping = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => {
        droppedAfterReading++;
        socket.destroy(); // read the request, then went away: it may or may not have done it
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const client = clientOf(`127.0.0.1:${(dropping.address() as AddressInfo).port},127.0.0.1:${good.port}`);
    try {
      const statuses: number[] = [];
      for (let request = 0; request < 20; request++) statuses.push(await statusOf(client));

      expect(droppedAfterReading).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 503)).toHaveLength(droppedAfterReading);
      expect(statuses.filter((status) => status === 200)).toHaveLength(countOf('good'));
      // Every request reached exactly one replica: none was sent again after its connection dropped.
      expect(droppedAfterReading + countOf('good')).toBe(20);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it('answers 503 when no replica accepts a connection', async () => {
    const closed = await startReplica('closed', '127.0.0.1');
    await closed.stop();
    const client = clientOf(`127.0.0.1:${closed.port}`);
    expect(await statusOf(client)).toBe(503);
    // The one replica is tried again by the next request, not left out unasked: it is back at once.
    await startReplica('closed', '127.0.0.1', closed.port);
    await until(async () => (await statusOf(client)) === 200, { timeoutMs: 10_000, intervalMs: 50, what: 'the replica answering after its restart' });
  });
});

describe('a service named in DNS', () => {
  it("sends to every address the name resolves to, and follows the name's changes", async () => {
    const first = await startReplica('127.0.0.2', '127.0.0.2');
    const port = first.port;
    await startReplica('127.0.0.3', '127.0.0.3', port);
    let records: string[] | Error = ['127.0.0.2', '127.0.0.3'];
    const lookedUp: string[] = [];
    const resolve: Resolver = async (host) => {
      lookedUp.push(host);
      if (records instanceof Error) throw records;
      return records;
    };
    const client = clientOf(`limits.test:${port}`, { resolve, resolveEveryMs: 50 });

    expect((await sendMany(client, 40)).every((status) => status === 200)).toBe(true);
    expect(lookedUp[0]).toBe('limits.test');
    expect(countOf('127.0.0.2')).toBeGreaterThan(10);
    expect(countOf('127.0.0.3')).toBeGreaterThan(10);

    // A replica gone from the name (a pod no longer ready) gets nothing more.
    records = ['127.0.0.3'];
    await until(() => client.addresses().join() === `127.0.0.3:${port}`, { timeoutMs: 5_000, intervalMs: 20, what: 'the name resolved again' });
    const left = countOf('127.0.0.2');
    expect((await sendMany(client, 20)).every((status) => status === 200)).toBe(true);
    expect(countOf('127.0.0.2')).toBe(left);

    // A lookup that fails keeps the addresses the name had.
    records = new Error('getaddrinfo EAI_AGAIN limits.test');
    const lookups = lookedUp.length;
    await until(() => lookedUp.length > lookups + 2, { timeoutMs: 5_000, intervalMs: 20, what: 'failed lookups' });
    expect(client.addresses()).toEqual([`127.0.0.3:${port}`]);
    expect((await sendMany(client, 10)).every((status) => status === 200)).toBe(true);

    // A replica that appears (a new pod) takes its share.
    records = ['127.0.0.3', '127.0.0.2'];
    await until(() => client.addresses().length === 2, { timeoutMs: 5_000, intervalMs: 20, what: 'the new address' });
    await sendMany(client, 20);
    expect(countOf('127.0.0.2')).toBeGreaterThan(left);
  });
});
