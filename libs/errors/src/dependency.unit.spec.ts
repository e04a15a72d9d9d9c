import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import net from 'node:net';
import { Client, DatabaseError, Pool } from 'pg';
import { firstValueFrom, timeout } from 'rxjs';
import { QueryFailedError } from 'typeorm';
import { isDependencyUnavailable, unavailableDependency } from './dependency';

// Each error here is the real object the client library makes: against a loopback port nothing listens on, or a
// fake server on loopback that answers as the real one does when it restarts (PostgreSQL's and Redis's wire replies,
// a peer closing the socket). Only 57P01 mid-query is built by hand, with pg's own DatabaseError class.

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback server that does `onData` with each chunk a connection sends; resolves to its port. */
async function fakeServer(onData: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', () => onData(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A port on loopback that refuses connections: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** PostgreSQL's ErrorResponse message ('E'), as a postmaster sends it to a connection it will not serve. */
function postgresError(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

async function pgConnectError(port: number): Promise<unknown> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  return rejection(client.connect());
}

describe('PostgreSQL is not there right now', () => {
  it.each([
    ['57P03', 'the database system is shutting down'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['57P01', 'terminating connection due to administrator command'],
  ])('a connection refused with %s (%s), as the postmaster answers it', async (code, message) => {
    const port = await fakeServer((socket) => socket.end(postgresError(code, message)));
    const error = await pgConnectError(port);
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({ code, message });
    expect(unavailableDependency(error)).toBe('postgres');
  });

  it('a server terminating the connection under a query (57P01, 57P02), also as TypeORM wraps it', () => {
    for (const [code, message] of [
      ['57P01', 'terminating connection due to administrator command'],
      ['57P02', 'terminating connection because of crash of another server process'],
    ]) {
      const error = Object.assign(new DatabaseError(message, 100, 'error'), { code, severity: 'FATAL' });
      expect(unavailableDependency(error)).toBe('postgres');
      const wrapped = new QueryFailedError('INSERT ...', [], error);
      expect(wrapped.message).toBe(message);
      expect(unavailableDependency(wrapped)).toBe('postgres');
      // Without the copied code, through driverError alone.
      expect(unavailableDependency({ name: 'QueryFailedError', message: 'x', driverError: error })).toBe('postgres');
    }
  });

  it('a connection the server closes (Connection terminated unexpectedly)', async () => {
    const port = await fakeServer((socket) => socket.destroy());
    const error = await pgConnectError(port);
    expect((error as Error).message).toBe('Connection terminated unexpectedly');
    expect(unavailableDependency(error)).toBe('postgres');
  });

  it('a connection refused (ECONNREFUSED), the server being down', async () => {
    const error = await pgConnectError(await closedPort());
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(unavailableDependency(error)).toBe('network');
  });

  it("no free connection of the pool within connectionTimeoutMillis (pg-pool's timeout)", async () => {
    const port = await fakeServer(() => undefined); // accepts, never answers
    const pool = new Pool({ host: '127.0.0.1', port, user: 'postgres', max: 1, connectionTimeoutMillis: 100 });
    pool.on('error', () => undefined);
    const error = await rejection(pool.connect());
    await pool.end().catch(() => undefined);
    expect((error as Error).message).toMatch(/^timeout exceeded when trying to connect|^Connection terminated due to connection timeout/);
    expect(unavailableDependency(error)).toBe('postgres');
  });
});

describe('Redis is not there right now', () => {
  it('retries used up while it is down (MaxRetriesPerRequestError)', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: await closedPort(), maxRetriesPerRequest: 0, retryStrategy: () => 50, lazyConnect: false });
    redis.on('error', () => undefined);
    const error = await rejection(redis.get('k'));
    redis.disconnect();
    expect((error as Error).name).toBe('MaxRetriesPerRequestError');
    expect(unavailableDependency(error)).toBe('redis');
  });

  it('loading its data set after a restart (LOADING)', async () => {
    const port = await fakeServer((socket) => socket.write('-LOADING Redis is loading the dataset in memory\r\n'));
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0, enableReadyCheck: false });
    redis.on('error', () => undefined);
    const error = await rejection(redis.get('k'));
    redis.disconnect();
    expect(error).toMatchObject({ name: 'ReplyError', message: 'LOADING Redis is loading the dataset in memory' });
    expect(unavailableDependency(error)).toBe('redis');
  });

  it('a command on a closed connection, and one past commandTimeout', async () => {
    const closed = new Redis({ host: '127.0.0.1', port: await closedPort(), lazyConnect: true });
    closed.disconnect();
    const error = await rejection(closed.get('k'));
    expect((error as Error).message).toBe('Connection is closed.');
    expect(unavailableDependency(error)).toBe('redis');

    const port = await fakeServer(() => undefined); // accepts, never answers
    const silent = new Redis({ host: '127.0.0.1', port, commandTimeout: 100, enableReadyCheck: false, maxRetriesPerRequest: 0 });
    silent.on('error', () => undefined);
    const timedOut = await rejection(silent.get('k'));
    silent.disconnect();
    expect((timedOut as Error).message).toBe('Command timed out');
    expect(unavailableDependency(timedOut)).toBe('redis');
  });
});

describe('Kafka is not there right now', () => {
  it('no broker answers (kafkajs connection error, its retries exceeded)', async () => {
    const kafka = new Kafka({
      clientId: 'classifier',
      brokers: [`127.0.0.1:${await closedPort()}`],
      retry: { retries: 1, initialRetryTime: 20 },
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer();
    const error = await rejection(producer.connect());
    await producer.disconnect().catch(() => undefined);
    expect((error as Error).name).toMatch(/^KafkaJS/);
    expect(unavailableDependency(error)).toBe('kafka');
  });

  it('a partition without a leader while the broker recovers (a retriable protocol error)', () => {
    expect(unavailableDependency({ name: 'KafkaJSProtocolError', message: 'There is no leader for this topic-partition', type: 'LEADER_NOT_AVAILABLE' })).toBe(
      'kafka',
    );
    expect(unavailableDependency({ name: 'KafkaJSProtocolError', message: 'Topic authorization failed', type: 'TOPIC_AUTHORIZATION_FAILED' })).toBeUndefined();
  });
});

describe('a service is not there right now', () => {
  it("the service's connection closed with the request in flight (NestJS's TCP client), and no answer in time", async () => {
    const port = await fakeServer((socket) => socket.destroy()); // reads the request, then drops the connection
    const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
    const error = await rejection(firstValueFrom(client.send('limits.set', { body: {} })));
    client.close();
    expect((error as Error).message).toBe('Connection closed');
    expect(unavailableDependency(error)).toBe('network');

    const silentPort = await fakeServer(() => undefined);
    const silent = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port: silentPort } });
    const timedOut = await rejection(firstValueFrom(silent.send('limits.set', { body: {} }).pipe(timeout(100))));
    silent.close();
    expect(unavailableDependency(timedOut)).toBe('network');
  });

  it('a reset, a broken pipe, a timeout, and every address of a host refusing (AggregateError), or wrapped as a cause', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'])
      expect(unavailableDependency(Object.assign(new Error(`connect ${code}`), { code }))).toBe('network');
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(unavailableDependency(new AggregateError([refused('127.0.0.1:1'), refused('[::1]:1')]))).toBe('network');
    expect(unavailableDependency(new TypeError('fetch failed', { cause: refused('127.0.0.1:1') }))).toBe('network');
  });
});

describe('anything else stays an internal error', () => {
  it.each([
    ['a syntax error', Object.assign(new DatabaseError('syntax error at or near "SELEC"', 10, 'error'), { code: '42601' })],
    ['a unique violation', Object.assign(new DatabaseError('duplicate key value violates unique constraint', 10, 'error'), { code: '23505' })],
    ['a protocol violation (a bug, not an outage)', Object.assign(new DatabaseError('protocol violation', 10, 'error'), { code: '08P01' })],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a plain error', new Error('boom')],
    ['a Redis refusal of a command', Object.assign(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'), { name: 'ReplyError' })],
    ['an AggregateError of which one is a bug', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), new Error('boom')])],
    ['no error at all', undefined],
    ['a string', 'Connection closed'],
  ])('%s', (_what, error) => {
    expect(unavailableDependency(error)).toBeUndefined();
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
