import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@pixauto/testing';
import { listenOptions, superviseProcesses } from './processes';

// GATEWAY_PROCESSES: real processes started by the gateway's supervisor, each a Fastify server bound with the
// gateway's listen options, serving one loopback port together.

/** Each process answers with its pid and index, and drains on SIGTERM as the gateway does (exit 0). */
const WORKER = `
const app = require(process.env.FASTIFY_PATH)();
app.get('/', async () => ({ pid: process.pid, index: process.env.GATEWAY_PROCESS_INDEX }));
app.listen(JSON.parse(process.env.LISTEN_OPTIONS));
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One request on a connection of its own (the kernel picks a process per connection). */
const whoAnswers = (port: number): Promise<{ pid: number; index: string }> =>
  new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });

/** The processes that answered `requests` requests. */
async function answering(port: number, requests = 40): Promise<Map<number, string>> {
  const answers = await Promise.all(Array.from({ length: requests }, () => whoAnswers(port)));
  return new Map(answers.map(({ pid, index }) => [pid, index]));
}

describe('the gateway as several processes on the same ports', () => {
  it('serves one port from two processes, starts again one that crashed, and stops them all on SIGTERM', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'gateway-processes-'));
    writeFileSync(join(dir, 'worker.cjs'), WORKER);
    const logged: string[] = [];
    const supervisor = superviseProcesses(2, {
      modulePath: join(dir, 'worker.cjs'),
      execArgv: [],
      env: { ...process.env, FASTIFY_PATH: require.resolve('fastify'), LISTEN_OPTIONS: JSON.stringify(listenOptions(port, '127.0.0.1', true)) },
      restartDelayMs: 100,
      log: (message) => logged.push(message),
    });
    try {
      let seen = new Map<number, string>();
      await until(async () => (seen = await answering(port).catch(() => new Map())).size === 2, {
        timeoutMs: 20_000,
        intervalMs: 100,
        what: 'both processes answering on the one port',
      });
      expect([...seen.keys()].sort()).toEqual(supervisor.pids().sort());
      expect([...seen.values()].sort()).toEqual(['0', '1']);

      // The option is what lets them share: a listener without it cannot bind the port.
      const plain = net.createServer();
      const bound = await new Promise<unknown>((resolve) => {
        plain.once('error', resolve);
        plain.listen(listenOptions(port, '127.0.0.1', false), () => resolve('listening'));
      });
      plain.close();
      expect(bound).toMatchObject({ code: 'EADDRINUSE' });

      const [crashed] = supervisor.pids();
      process.kill(crashed, 'SIGKILL');
      await until(async () => (seen = await answering(port).catch(() => new Map())).size === 2 && !seen.has(crashed), {
        timeoutMs: 20_000,
        intervalMs: 100,
        what: 'a new process in place of the crashed one, both answering',
      });
      expect(logged.some((line) => line.includes(`(pid ${crashed}) exited with SIGKILL`))).toBe(true);

      expect(await supervisor.stop()).toBe(0);
      expect(supervisor.pids()).toEqual([]);
      await expect(whoAnswers(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await supervisor.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
