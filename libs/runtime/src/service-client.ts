import { Logger } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { lookup } from 'node:dns/promises';
import type { Socket } from 'node:net';
import { firstValueFrom, timeout } from 'rxjs';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { outsideRequest } from '@pixauto/telemetry';
import { AddressEntry, parseAddresses, pickReplica, ReplicaLoad, replicaBackoffMs } from './balancing';

/** Every address a DNS name has (IPv4 and IPv6), as getaddrinfo gives them: /etc/hosts and the cluster's DNS alike. */
export type Resolver = (host: string) => Promise<string[]>;
export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((record) => record.address);

/** How often a name is resolved again: a pod that became ready is used, one gone is left, within this. */
const RESOLVE_EVERY_MS = 5_000;
/** A replica that has not accepted the connection within this is down; the request, not sent, goes to another. */
const CONNECT_TIMEOUT_MS = 2_000;

const refused = (): never => refuse(unavailable(Messages.request.serviceUnavailable));

/** One address of the service: its own NestJS TCP client (one connection), and what the choice reads. */
class Replica implements ReplicaLoad {
  readonly client: ClientProxy;
  outstanding = 0;
  downUntil = 0;
  failures = 0;
  /** The client's socket is open: a request is sent at once, with no connection step. */
  connected = false;
  /** No longer in the address list: closed once its last request is answered. */
  retired = false;

  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port } });
    this.client.status.subscribe((status) => (this.connected = status === 'connected'));
  }

  get name(): string {
    return this.host.includes(':') ? `[${this.host}]:${this.port}` : `${this.host}:${this.port}`;
  }
}

export interface ServiceClientOptions {
  /** Beyond this many requests waiting on the service (all replicas together), refused at once: 503. */
  maxInFlight?: number;
  /** Tests answer their own names with loopback addresses. */
  resolve?: Resolver;
  resolveEveryMs?: number;
  connectTimeoutMs?: number;
}

/**
 * A service's replicas, as one client: each request goes to one replica (the fewest outstanding, ties round robin),
 * over that replica's own connection, so N replicas share this process's traffic. The addresses are a list
 * (`a:4005,b:4005`) and/or DNS names, each resolved to all its records (a headless Service's pods) and again every
 * few seconds. A replica whose connection cannot be made is left out for a backoff and the request goes to
 * another: it was never sent. A request that was sent is never sent again, whatever happens to its connection (the
 * replica may have done it): 503 with Retry-After, as when no replica answers at all.
 */
export class ServiceClient {
  private readonly logger = new Logger('ServiceClient');
  private readonly entries: AddressEntry[];
  private replicas: Replica[] = [];
  /** Retired with requests still outstanding: closed when answered, or with the client. */
  private readonly retiring = new Set<Replica>();
  /** The last addresses each name resolved to, kept while its lookups fail (a DNS hiccup empties nothing). */
  private readonly resolved = new Map<string, string[]>();
  private readonly firstResolution: Promise<void>;
  private readonly resolveTimer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private cursor = 0;
  private inFlight = 0;

  constructor(
    address: string,
    private readonly options: ServiceClientOptions = {},
  ) {
    this.entries = parseAddresses(address);
    this.firstResolution = this.refresh();
    if (this.entries.some((entry) => entry.resolved)) {
      this.resolveTimer = setInterval(() => void this.refresh(), options.resolveEveryMs ?? RESOLVE_EVERY_MS).unref();
    }
  }

  /** The addresses requests may go to now, as `host:port` (operations and tests). */
  addresses(): string[] {
    return this.replicas.map((replica) => replica.name);
  }

  /**
   * The reply of one replica to `message`, within `timeoutMs` from now (connecting included). Refused with 503 when
   * the service has too many requests waiting, when no replica accepts a connection, and when the one the request
   * was sent to does not answer (its connection dropped, or no reply in time).
   */
  async send<T>(pattern: string, message: unknown, timeoutMs: number): Promise<T> {
    if (this.inFlight >= (this.options.maxInFlight ?? Infinity)) refused();
    this.inFlight++;
    const deadline = performance.now() + timeoutMs;
    try {
      if (this.replicas.length === 0) await this.firstResolution;
      const tried = new Set<Replica>();
      for (;;) {
        const index = pickReplica(this.replicas, performance.now(), this.cursor, tried);
        if (index < 0) return refused();
        const replica = this.replicas[index];
        this.cursor = (index + 1) % this.replicas.length;
        tried.add(replica);
        replica.outstanding++;
        try {
          if (!replica.connected && !(await this.connect(replica, deadline))) continue;
          return await firstValueFrom(replica.client.send<T>(pattern, message).pipe(timeout(Math.max(1, deadline - performance.now()))));
        } catch {
          return refused();
        } finally {
          replica.outstanding--;
          if (replica.retired && replica.outstanding === 0) this.closeReplica(replica);
        }
      }
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.resolveTimer);
    for (const replica of [...this.replicas, ...this.retiring]) this.closeReplica(replica);
    this.replicas = [];
  }

  /** Connects the replica's client; false when it refused or did not accept in time (it is then left out a while). */
  private async connect(replica: Replica, deadline: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.connectWaitMs(deadline))));
    // Outside the request: the socket serves every request after, and its events belong to none.
    const connecting = outsideRequest(() => replica.client.connect()).then(
      () => 'connected' as const,
      () => 'refused' as const,
    );
    const outcome = await Promise.race([connecting, waited]).finally(() => clearTimeout(timer));
    if (outcome === 'connected') {
      if (replica.failures > 0) this.logger.log(`${replica.name} accepts connections again`);
      replica.failures = 0;
      replica.downUntil = 0;
      return true;
    }
    // A connection still being attempted is dropped, so that the next attempt starts afresh.
    if (outcome === 'timeout') this.socketOf(replica)?.destroy();
    this.markDown(replica, outcome);
    return false;
  }

  private connectWaitMs(deadline: number): number {
    return Math.max(1, Math.min(this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, deadline - performance.now()));
  }

  private socketOf(replica: Replica): Socket | undefined {
    try {
      return replica.client.unwrap<Socket>();
    } catch {
      return undefined; // no socket: the attempt already ended
    }
  }

  private markDown(replica: Replica, why: string): void {
    const now = performance.now();
    if (replica.downUntil > now) return; // requests that shared one failed attempt count it once
    replica.failures++;
    const backoffMs = replicaBackoffMs(replica.failures);
    replica.downUntil = now + backoffMs;
    if (replica.failures === 1)
      this.logger.warn(
        `${replica.name} ${why === 'timeout' ? 'did not accept a connection in time' : 'refused a connection'}: left out, retried in ${backoffMs} ms`,
      );
  }

  /** Resolves every name again and updates the replicas: new addresses are added, gone ones retired. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.resolveAll().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async resolveAll(): Promise<void> {
    const resolve = this.options.resolve ?? dnsResolver;
    const addresses = await Promise.all(
      this.entries.map(async ({ host, port, resolved }) => {
        if (!resolved) return [{ host, port }];
        try {
          const found = await resolve(host);
          this.resolved.set(host, found);
        } catch (error) {
          this.logger.warn(`${host} did not resolve, its last addresses kept: ${error instanceof Error ? error.message : String(error)}`);
        }
        return (this.resolved.get(host) ?? []).map((ip) => ({ host: ip, port }));
      }),
    );
    this.update(addresses.flat().sort((a, b) => `${a.host}:${a.port}`.localeCompare(`${b.host}:${b.port}`)));
  }

  private update(addresses: { host: string; port: number }[]): void {
    const current = new Map(this.replicas.map((replica) => [`${replica.host}|${replica.port}`, replica]));
    const next = new Map<string, Replica>();
    for (const { host, port } of addresses) {
      const key = `${host}|${port}`;
      if (!next.has(key)) next.set(key, current.get(key) ?? new Replica(host, port));
    }
    const kept = new Set(next.values());
    for (const replica of this.replicas) {
      if (kept.has(replica)) continue;
      replica.retired = true;
      if (replica.outstanding === 0) this.closeReplica(replica);
      else this.retiring.add(replica);
    }
    this.replicas = [...next.values()];
    if (this.cursor >= this.replicas.length) this.cursor = 0;
  }

  private closeReplica(replica: Replica): void {
    this.retiring.delete(replica);
    replica.client.close();
  }
}
