import { CallHandler, ExecutionContext, INestApplicationContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Server as TcpServer, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { finalize, Observable, of } from 'rxjs';
import { Messages, toHttp, unavailable } from '@pixauto/errors';

/**
 * How long a shutdown may take once the listeners begin to drain (after SHUTDOWN_DELAY_MS): the longest request a
 * listener lets run (the gateway answers 503 after 10 s waiting on a service; a service's message waits at most 5 s
 * for a connection, and on a bank that answers within its timeout), then the applications' close (consumers, the
 * outbox's 3 s flush, pools), with room for a machine short of CPU. Past it the process exits 1: something hung.
 */
export const DRAIN_DEADLINE_MS = 20_000;

/** When, after the signal, an app that has not stopped exits 1 (Kubernetes' grace period is set just above it). */
export const shutdownDeadlineMs = (delayMs: number): number => delayMs + DRAIN_DEADLINE_MS;
/** How long the last sockets of a drained listener get to send what they hold before they are cut. */
const SOCKET_END_MS = 1000;
/** A shutdown still running after this logs what it waits for, and again at every such interval. */
const PROGRESS_EVERY_MS = 2000;

/** What a listener answers once it no longer takes requests: 503 with Retry-After, like every 503 of the platform. */
const refusal = () => toHttp(unavailable(Messages.request.serviceUnavailable));

/** What is being answered, and when each began: `idle()` resolves when nothing is; `describe()` names what still is. */
class InFlight<T = unknown> {
  private readonly answering = new Map<T, { what: string; since: number }>();
  private waiters: (() => void)[] = [];

  begin(key: T, what: string): void {
    this.answering.set(key, { what, since: performance.now() });
  }

  end(key: T): void {
    if (!this.answering.delete(key) || this.answering.size > 0) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  idle(): Promise<void> {
    return this.answering.size === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** For the log of a drain that takes long: how many, and the oldest few with their age. */
  describe(): string {
    const now = performance.now();
    const oldest = [...this.answering.values()].slice(0, 3).map(({ what, since }) => `${what} for ${Math.round(now - since)} ms`);
    return `${this.answering.size} in flight${oldest.length ? ` (${oldest.join(', ')})` : ''}`;
  }
}

/**
 * An HTTP listener's drain. Its hooks come first on the listener: once draining, a new request is refused before any
 * other hook runs (no Idempotency-Key claimed, no service asked) and every answer closes its connection, so keep-alive
 * clients move on instead of holding the server open. Without its hooks (`perRequest: false`, a bench pricing them),
 * a drain only closes the listener and its idle connections.
 */
class HttpDrain {
  private draining = false;
  /** Aborted when the drain begins: an answer that never ends by itself (an event stream) ends then. */
  readonly drained = new AbortController();
  private readonly inFlight = new InFlight();
  private server?: HttpServer;
  private port?: number;

  constructor(fastify: FastifyInstance, perRequest: boolean) {
    if (!perRequest) return;
    fastify.addHook('onRequest', async (request, reply) => {
      if (this.draining) {
        const answer = refusal();
        return reply
          .status(answer.status)
          .headers({ ...answer.headers, connection: 'close' })
          .send(answer.body);
      }
      this.inFlight.begin(reply.raw, `${request.method} ${request.url}`);
      drainOfRequest.set(request.raw, this);
      reply.raw.once('close', () => this.inFlight.end(reply.raw));
    });
    fastify.addHook('onSend', async (_request, reply, payload) => {
      if (this.draining) reply.header('connection', 'close');
      return payload;
    });
  }

  /** No new connection, no new request; resolves once those in flight are answered and their connections closed. */
  async close(server: HttpServer): Promise<void> {
    this.draining = true;
    this.drained.abort();
    this.server = server;
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await this.inFlight.idle();
    // An answer that had started before the drain (a streamed CSV, an event stream) kept its connection alive: nothing
    // is in flight now. One whose last bytes were still leaving is not idle yet: it is cut once they had time to go.
    server.closeIdleConnections();
    const cut = setTimeout(() => server.closeAllConnections(), SOCKET_END_MS);
    await closed;
    clearTimeout(cut);
  }

  /** What the drain still waits for. */
  async describe(): Promise<string> {
    const connections = await new Promise<number>((resolve) => (this.server ? this.server.getConnections((_error, count) => resolve(count)) : resolve(0)));
    return `HTTP :${this.port}: ${this.inFlight.describe()}, ${connections} connections open`;
  }
}

const httpDrains = new WeakMap<FastifyInstance, HttpDrain>();
const drainOfRequest = new WeakMap<IncomingMessage, HttpDrain>();

/** Aborted when the listener serving the request begins to drain (never, on one without drainableHttp's hooks). */
export const drainSignal = (request: FastifyRequest): AbortSignal => drainOfRequest.get(request.raw)?.drained.signal ?? new AbortController().signal;

/** Installs the drain on a Fastify instance; call it before any other hook is added (createHttpApp and startService do). */
export function drainableHttp(fastify: FastifyInstance, { perRequest = true }: { perRequest?: boolean } = {}): void {
  httpDrains.set(fastify, new HttpDrain(fastify, perRequest));
}

/**
 * The gateway's messages to a service: counted while answered and, once the service drains, refused with 503 and
 * Retry-After without being handled, so the gateway answers its merchant at once and nothing half-runs.
 */
@Injectable()
export class RpcAdmission implements NestInterceptor {
  private closed = false;
  private readonly inFlight = new InFlight();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    if (this.closed) return of(refusal());
    const message = {};
    this.inFlight.begin(message, `${context.getClass().name}.${context.getHandler().name}`);
    // Nest writes the reply on a later tick than the stream completes (Server.send): counted done only after that.
    return next.handle().pipe(finalize(() => setImmediate(() => this.inFlight.end(message))));
  }

  /** Refuses new messages from now on; resolves once every message already taken has been answered. */
  close(): Promise<void> {
    this.closed = true;
    return this.inFlight.idle();
  }

  /** What the drain still waits for. */
  describe(): string {
    return `RPC: ${this.inFlight.describe()}`;
  }
}

/** The sockets a TCP server accepted and that are still open, so that a drain can end them gracefully. */
function trackSockets(server: TcpServer): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** Ends each socket (what it holds is sent first) and waits for them to close, cutting those that take too long. */
async function endSockets(sockets: Set<Socket>): Promise<void> {
  const closing = [...sockets].map(
    (socket) =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.end();
      }),
  );
  const cut = setTimeout(() => sockets.forEach((socket) => socket.destroy()), SOCKET_END_MS);
  await Promise.all(closing);
  clearTimeout(cut);
}

/** A listener as the shutdown drains it. */
interface Drainable {
  close(): Promise<void>;
  describe(): Promise<string> | string;
}

/** What the ops listener does during a shutdown: /health/ready answers 503 at once, and it closes last. */
export interface DrainingOperations {
  draining(): void;
  close(): Promise<void>;
}

/**
 * SIGTERM (or SIGINT), once: the one shutdown of every app. In order:
 * 1. /health/ready answers 503, so load balancers and Kubernetes stop sending; everything keeps serving for
 *    `delayMs` while they notice (requests accepted until then are served).
 * 2. Every listener stops taking requests (HTTP and NestJS TCP: new ones are refused with 503 and Retry-After or find
 *    the port closed) and finishes those in flight.
 * 3. The Nest applications close, in the order given: their hooks stop the Kafka consumers (kafkajs commits the
 *    offsets of what they handled) and the periodic tasks (onModuleDestroy), then flush the outbox and disconnect the
 *    producer (beforeApplicationShutdown), then close the pools, Redis and clients (onApplicationShutdown).
 * 4. The ops listener closes and the process exits 0; past `shutdownDeadlineMs`, or on a failure, it exits 1.
 * A shutdown still running after PROGRESS_EVERY_MS logs what it waits for (requests in flight, connections open, the
 * application closing), so a slow one says why.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly listeners: Drainable[] = [];
  private readonly applications: INestApplicationContext[] = [];
  private started = false;
  /** What the shutdown waits for right now, for the log when it takes long. */
  private waitingFor: () => Promise<string> = async () => 'starting';

  constructor(private readonly options: { delayMs: number; operations?: DrainingOperations }) {}

  /** An HTTP listener made by createHttpApp or startService. */
  http(app: NestFastifyApplication): this {
    const fastify = app.getHttpAdapter().getInstance();
    const drain = httpDrains.get(fastify);
    if (!drain) throw new Error('this HTTP listener cannot be drained: install drainableHttp before its other hooks');
    this.listeners.push({ close: () => drain.close(app.getHttpServer() as HttpServer), describe: () => drain.describe() });
    return this;
  }

  /** A NestJS TCP listener whose messages pass through `admission`; call before it listens (its sockets are tracked). */
  rpc(admission: RpcAdmission, server: TcpServer): this {
    const sockets = trackSockets(server);
    this.listeners.push({
      close: async () => {
        server.close();
        await admission.close();
        await endSockets(sockets);
      },
      describe: async () => `${admission.describe()}, ${sockets.size} connections open`,
    });
    return this;
  }

  /** Closed after the listeners, in the order added. */
  application(app: INestApplicationContext): this {
    this.applications.push(app);
    return this;
  }

  /** From now on a signal starts the shutdown. */
  listen(): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void this.run(signal));
  }

  private async run(signal: string): Promise<void> {
    if (this.started) return;
    this.started = true;
    const signalledAt = performance.now();
    const progress = setInterval(
      () => void this.report(`still shutting down ${Math.round(performance.now() - signalledAt)} ms after ${signal}`),
      PROGRESS_EVERY_MS,
    );
    const deadlineMs = shutdownDeadlineMs(this.options.delayMs);
    const deadline = setTimeout(() => {
      clearInterval(progress);
      void this.report(`still shutting down ${deadlineMs} ms after ${signal}: exiting`, 'error').finally(() => process.exit(1));
    }, deadlineMs);
    try {
      this.logger.log(`${signal}: not ready; serving ${this.options.delayMs} ms more, then draining`);
      this.options.operations?.draining();
      await sleep(this.options.delayMs);
      const draining = new Set(this.listeners);
      this.waitingFor = async () => `draining ${(await Promise.all([...draining].map((listener) => listener.describe()))).join('; ')}`;
      await Promise.all(this.listeners.map((listener) => listener.close().then(() => draining.delete(listener))));
      this.logger.log('listeners drained; stopping consumers and tasks, flushing the outbox, closing pools');
      for (const [index, app] of this.applications.entries()) {
        this.waitingFor = async () => `closing application ${index + 1} of ${this.applications.length} (its consumers, tasks, outbox, pools)`;
        await app.close();
      }
      this.waitingFor = async () => 'closing the ops listener';
      await this.options.operations?.close();
      clearTimeout(deadline);
      clearInterval(progress);
      this.logger.log('stopped');
      process.exit(0);
    } catch (error) {
      this.logger.error(`shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    }
  }

  /** One line naming what the shutdown still waits for: a drain that takes long says why. */
  private async report(headline: string, level: 'warn' | 'error' = 'warn'): Promise<void> {
    const what = await Promise.race([this.waitingFor(), sleep(100).then(() => 'unknown')]).catch((error: Error) => error.message);
    this.logger[level](`${headline}: ${what}`);
  }
}
