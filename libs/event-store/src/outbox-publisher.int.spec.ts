import net from 'node:net';
import { DataSource } from 'typeorm';
import { until } from '@pixauto/testing';
import { EventStore } from './event-store';
import { OutboxMessage, OutboxPublisher } from './outbox-publisher';
import { createTestDataSource, dropTestDataSource } from './testing/test-database';

// A database restart under the publisher, on the real PostgreSQL server behind a loopback proxy the test cuts: every
// session dropped, then connections refused for a while, then the server back. The publisher must publish again, at
// least once: what the sink took before the cut may come again (its DELETE lost), what was appended after comes once.

const serverUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

/** Forwards loopback connections to PostgreSQL; `down()` drops every connection and refuses new ones until `up()`. */
class CuttableProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect({ host: serverUrl.hostname, port: Number(serverUrl.port || 5432) });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => this.sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

let direct: DataSource;
let throughProxy: DataSource | undefined;
const proxy = new CuttableProxy();

beforeAll(async () => {
  direct = await createTestDataSource('outbox_restart');
  await proxy.up();
  const url = new URL(direct.options.type === 'postgres' ? String(direct.options.url) : '');
  url.host = `127.0.0.1:${proxy.port}`;
  throughProxy = new DataSource({ type: 'postgres', url: url.toString(), extra: { max: 4, connectionTimeoutMillis: 1000 } });
  await throughProxy.initialize();
});

afterAll(async () => {
  await proxy.down();
  await throughProxy?.destroy().catch(() => undefined);
  await dropTestDataSource(direct);
});

const appendOne = (text: string) =>
  new EventStore(direct).append({
    streamId: `note-${text}`,
    streamType: 'note',
    expectedVersion: 0,
    events: [{ type: 'note.written', data: { text } }],
    tenant: { accountId: 'acc-outbox-restart', environment: 'production' },
    occurredAt: new Date('2026-11-25T12:00:00.000Z'),
    topic: 'notes',
  });

it('publishes again after the database drops its connection and refuses new ones for a while (a restart)', async () => {
  const sent: OutboxMessage[] = [];
  const errors: string[] = [];
  const publisher = new OutboxPublisher(
    throughProxy!,
    { send: async (messages) => void sent.push(...messages) },
    { lockKey: 424_242, idleMs: 100, onError: (error) => errors.push(String(error)) },
  );
  publisher.start();
  try {
    await appendOne('before');
    await until(() => sent.length === 1, { timeoutMs: 10_000, what: 'the message appended before the restart sent' });

    await proxy.down(); // every session terminated, and connections refused: the publisher's reconnects fail
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await proxy.up();

    await appendOne('after');
    // At least once: the cut may have dropped the DELETE of 'before' after the sink had it, so 'before' may come again.
    const keys = () => sent.map((message) => message.key);
    await until(() => keys().includes('note-after'), { timeoutMs: 10_000, what: 'the message appended after the restart sent' }).catch(async (error: Error) => {
      // What the publisher met, and who holds its lock: what a rare failure here needs to be understood.
      const holders = await direct.query(
        `SELECT a.pid, a.state, a.query, a.backend_start FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND l.objid = 424242 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      throw new Error(`${error.message}; the publisher's errors: ${JSON.stringify(errors)}; advisory lock holders: ${JSON.stringify(holders)}`);
    });
    expect([...new Set(keys())]).toEqual(['note-before', 'note-after']);
    expect(keys().filter((key) => key === 'note-after')).toHaveLength(1);
  } finally {
    await publisher.stop();
  }
}, 30_000);
