import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { until } from '@pixauto/testing';

// Servers of a test's own, on ports of their own, for the fault suite: it restarts and kills them, which it must never
// do to the machine's shared PostgreSQL, Redis and Kafka (other suites run beside it). Each `stop` is safe to call
// whatever state the server is in, so an afterAll can always call it.

const run = promisify(execFile);
const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const INFRA = path.join(ROOT, 'deploy', 'scripts', 'infra.mjs');

/** Whether something accepts connections on `port` now. */
const accepts = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Until something accepts connections on `port` (or, with `open: false`, nothing does); throws past `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, open = true): Promise<void> {
  await until(async () => (await accepts(port)) === open, { timeoutMs, intervalMs: 100, what: `port ${port} ${open ? 'accepting connections' : 'closed'}` });
}

/**
 * A PostgreSQL 15 cluster in `dir` (initdb on first use), on `port`, trusting local connections. PostgreSQL refuses to
 * run as root, so as root it runs as the `postgres` user.
 */
export class PrivatePostgres {
  private readonly data: string;
  private readonly log: string;

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.data = path.join(dir, 'data');
    this.log = path.join(dir, 'postgres.log');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private asOwner(program: string, args: string[], timeoutMs = 120_000) {
    const binary = path.join(POSTGRES_BIN, program);
    const root = process.getuid?.() === 0;
    return run(root ? 'runuser' : binary, root ? ['-u', 'postgres', '--', binary, ...args] : args, { timeout: timeoutMs });
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true });
    if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres', this.dir]);
    if (!fs.existsSync(path.join(this.data, 'PG_VERSION'))) {
      await this.asOwner('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    }
    // Room for every app's default pool (92 connections) and the test's own.
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c max_connections=150`;
    await this.asOwner('pg_ctl', ['-D', this.data, '-l', this.log, '-o', options, '-w', '-t', '60', 'start']);
  }

  /** As `pg_ctlcluster restart` does: a fast shutdown (every session terminated, 57P01), then a start. */
  async restart(): Promise<void> {
    // -l again: without it the new postmaster would write to our pipe, and hold it open.
    await this.asOwner('pg_ctl', ['-D', this.data, '-l', this.log, '-m', 'fast', '-w', '-t', '60', 'restart']);
  }

  async stop(): Promise<void> {
    if (!fs.existsSync(path.join(this.data, 'postmaster.pid'))) return;
    await this.asOwner('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => undefined);
  }
}

/** A redis-server on `port`, nothing persisted (as the machine's: --save "" --appendonly no). */
export class PrivateRedis {
  private process?: ChildProcess;

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.dir, { recursive: true });
    const out = fs.openSync(path.join(this.dir, 'redis.log'), 'a');
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir], {
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    await waitForPort(this.port, 15_000); // redis-server listening
  }

  /** SIGTERM (redis-server's shutdown: with nothing to save, it exits at once), waited for. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** A single-node Kafka broker of our own: the shared broker's configuration and jars (deploy/scripts/infra.mjs broker). */
export class PrivateKafka {
  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly controllerPort: number,
  ) {}

  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  private infra(...args: string[]) {
    return run(process.execPath, [INFRA, 'broker', ...args, '--dir', this.dir, '--port', String(this.port), '--controller-port', String(this.controllerPort)], {
      timeout: 180_000,
      cwd: ROOT,
    });
  }

  async start(): Promise<void> {
    await this.infra('start');
  }

  /** kill -9: the broker gets no chance to shut down, as in a crash. */
  async kill(): Promise<void> {
    await this.infra('kill');
  }

  async stop(): Promise<void> {
    await this.infra('stop').catch(() => undefined);
  }
}
