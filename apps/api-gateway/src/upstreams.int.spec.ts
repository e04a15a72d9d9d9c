import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxy, ClientProxyFactory, MessagePattern, MicroserviceOptions, Transport } from '@nestjs/microservices';
import Fastify, { FastifyInstance } from 'fastify';
import net, { Socket } from 'node:net';
import { Pool } from 'pg';
import { firstValueFrom } from 'rxjs';
import { ServiceReply, ServiceRequest, Tenant } from '@pixauto/contracts';
import { isDependencyUnavailable } from '@pixauto/errors';
import { DeadlineInterceptor, ServiceReplyFilter, toHttpError } from '@pixauto/runtime';
import { currentRequest, withRequest } from '@pixauto/telemetry';
import { until } from '@pixauto/testing';
import { Upstreams } from './upstreams';

// Overload is answered, never queued without end (docs/decisions/overload-and-outages.md "Overload"): the gateway's cap
// on requests waiting on one service, a service's refusal of a request whose deadline passed, and the pool's wait, over
// real TCP and PostgreSQL.

const PORT = 19_400 + Math.floor(Math.random() * 500);
const tenant: Tenant = { accountId: 'acc_overload', environment: 'sandbox' };
const handled: string[] = [];
let release: () => void = () => undefined;
let released = new Promise<void>((resolve) => (release = resolve));

@Controller()
class TestHandlers {
  @MessagePattern('test.slow')
  async slow(): Promise<ServiceReply> {
    handled.push('slow');
    await released;
    return { status: 200, body: { ok: true } };
  }

  @MessagePattern('test.count')
  count(): ServiceReply {
    handled.push('count');
    return { status: 200, body: { ok: true } };
  }
}

@Module({ controllers: [TestHandlers] })
class TestServiceModule {}

let service: INestMicroservice;
let client: ClientProxy;
let gateway: FastifyInstance;

beforeAll(async () => {
  service = await NestFactory.createMicroservice<MicroserviceOptions>(TestServiceModule, {
    transport: Transport.TCP,
    options: { host: '127.0.0.1', port: PORT },
    logger: false,
  });
  service.useGlobalFilters(new ServiceReplyFilter());
  service.useGlobalInterceptors(new DeadlineInterceptor());
  await service.listen();
  client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port: PORT } });
  const upstreams = new Upstreams({ limits: `127.0.0.1:${PORT}` } as ConstructorParameters<typeof Upstreams>[0], () => 0, 2);
  gateway = Fastify();
  gateway.setErrorHandler((error, _request, reply) => {
    const answer = toHttpError(error);
    void reply
      .status(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  });
  gateway.post('/:pattern', (request, reply) => upstreams.relay('limits', `test.${(request.params as { pattern: string }).pattern}`, tenant, request, reply));
  await gateway.ready();
});

afterAll(async () => {
  release();
  await gateway?.close();
  client?.close();
  await service?.close();
});

beforeEach(() => {
  handled.length = 0;
  released = new Promise<void>((resolve) => (release = resolve));
});

describe('the gateway caps the requests waiting on one service', () => {
  it('answers 503 with Retry-After at once past the cap, sends the service nothing, and has room again when answers come', async () => {
    const waiting = [gateway.inject({ method: 'POST', url: '/slow' }), gateway.inject({ method: 'POST', url: '/slow' })];
    await until(() => handled.length === 2, { timeoutMs: 2000, intervalMs: 10, what: 'both slow requests at the service' });

    const refused = await gateway.inject({ method: 'POST', url: '/count' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ message: 'Service temporarily unavailable, retry later' });
    expect(handled).toEqual(['slow', 'slow']);

    release();
    expect((await Promise.all(waiting)).map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect((await gateway.inject({ method: 'POST', url: '/count' })).statusCode).toBe(200);
    expect(handled).toEqual(['slow', 'slow', 'count']);
  });
});

describe('a service refuses a request whose deadline has passed', () => {
  const send = (request: ServiceRequest) => firstValueFrom(client.send<ServiceReply>('test.count', request));

  it('answers 503 with Retry-After and does nothing', async () => {
    expect(await send({ tenant, body: {}, deadline_ms: Date.now() - 1 })).toEqual({
      status: 503,
      body: { message: 'Service temporarily unavailable, retry later' },
      headers: { 'retry-after': '1' },
    });
    expect(handled).toEqual([]);
  });

  it('handles a request within its deadline, and one that carries none', async () => {
    expect(await send({ tenant, body: {}, deadline_ms: Date.now() + 5_000 })).toMatchObject({ status: 200 });
    expect(await send({ tenant, body: {} })).toMatchObject({ status: 200 });
    expect(handled).toEqual(['count', 'count']);
  });
});

describe('a request that finds no free database connection in time', () => {
  it("is answered 503 with Retry-After, not 500 (pg-pool's own timeout, as the services configure it)", async () => {
    const pool = new Pool({
      connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      max: 1,
      connectionTimeoutMillis: 100,
    });
    const held = await pool.connect();
    try {
      const error = await pool.connect().then(
        (extra) => {
          extra.release();
          return undefined;
        },
        (reason: unknown) => reason,
      );
      expect(isDependencyUnavailable(error)).toBe(true);
      expect(toHttpError(error)).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
    } finally {
      held.release();
      await pool.end();
    }
    expect(isDependencyUnavailable(new Error('relation "x" does not exist'))).toBe(false);
    expect(toHttpError(new Error('boom')).status).toBe(500);
  });
});

describe('a service whose connection drops with the request in flight', () => {
  it('is answered 503 with Retry-After in the error shape, and the request is not sent again (it may have been done)', async () => {
    let received = 0;
    const sockets = new Set<Socket>();
    const dropping = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => {
        received++;
        socket.destroy(); // the service went away after reading the request: it may or may not have run it
      });
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const upstreams = new Upstreams(
      { limits: `127.0.0.1:${(dropping.address() as net.AddressInfo).port}` } as ConstructorParameters<typeof Upstreams>[0],
      () => 0,
      2,
    );
    const app = Fastify();
    app.setErrorHandler((error, _request, reply) => {
      const answer = toHttpError(error);
      void reply
        .status(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
    });
    app.post('/set', (request, reply) => upstreams.relay('limits', 'limits.set', tenant, request, reply));
    try {
      const answer = await app.inject({ method: 'POST', url: '/set', payload: { amount: 1 } });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.json()).toEqual({ message: 'Service temporarily unavailable, retry later' });
      // The next request reaches the service: a resend of the first would have come before it.
      expect((await app.inject({ method: 'POST', url: '/set', payload: { amount: 2 } })).statusCode).toBe(503);
      expect(received).toBe(2);
    } finally {
      await app.close();
      await upstreams.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('a connection to a service belongs to no request', () => {
  it('the socket a request opened reports its later events under no request id', async () => {
    const upstreams = new Upstreams({ limits: `127.0.0.1:${PORT}` } as ConstructorParameters<typeof Upstreams>[0], () => 0, 2);
    const app = Fastify();
    app.post('/count', (request, reply) => withRequest({ requestId: 'opened-it' }, () => upstreams.relay('limits', 'test.count', tenant, request, reply)));
    try {
      expect((await app.inject({ method: 'POST', url: '/count' })).statusCode).toBe(200);
      // The NestJS client's socket, of the service's one replica (internals: no public accessor). 'close' comes from the
      // socket's own handle, in the async context the socket was created in.
      type Internals = { clients: Map<string, { replicas: { client: { socket: { netSocket: Socket } | null } }[] }> };
      const client = (upstreams as unknown as Internals).clients.get('limits')?.replicas[0].client;
      const socket = client?.socket?.netSocket as Socket;
      const closedUnder = new Promise((resolve) => socket.once('close', () => resolve(currentRequest()?.requestId ?? 'no request')));
      await upstreams.close();
      expect(await closedUnder).toBe('no request');
    } finally {
      await app.close();
    }
  });
});
