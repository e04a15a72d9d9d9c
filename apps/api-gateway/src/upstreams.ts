import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { AccountProfile, ServiceReply, ServiceRequest, Tenant } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { SystemClock, TenantClockOffset } from '@pixauto/pix';
import { traceHeadersOf } from '@pixauto/runtime';
import { outsideRequest } from '@pixauto/telemetry';
import type { UpstreamName } from './gateway.config';
import type { OwnWrites } from './own-writes';

/** How long the gateway waits for a service's reply. */
const REPLY_TIMEOUT_MS = 10_000;
/** A request a service has not begun this long after the gateway sent it is refused there (deadline_ms): the 2 s left let one begun in time finish. */
const START_DEADLINE_MS = 8_000;

/**
 * The gateway's one way to the services: NestJS TCP messages (3-5x the throughput of HTTP on this hop, measured:
 * docs/performance.md "Gateway to service transport"). The service's reply is HTTP-shaped and goes back to the merchant
 * as it is.
 */
export class Upstreams {
  private readonly clients: Map<UpstreamName, ClientProxy>;
  private readonly inFlight = new Map<UpstreamName, number>();
  /** Deadlines are real time for every tenant: a sandbox test clock does not move them. */
  private readonly wallClock = new SystemClock();

  constructor(
    addresses: Record<UpstreamName, string>,
    private readonly clockOffsetOf: TenantClockOffset,
    /** Beyond this many requests waiting on one service, 503 at once rather than a queue that outlives its callers. */
    private readonly maxInFlight: number,
    /** The merchant's own writes, sent with its follower-fed reads (docs/decisions/read-your-writes.md). */
    private readonly ownWrites?: OwnWrites,
  ) {
    this.clients = new Map(
      Object.entries(addresses).map(([name, address]) => {
        const [host, port] = address.split(':');
        return [name as UpstreamName, ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port: Number(port) } })];
      }),
    );
  }

  async relay(name: UpstreamName, pattern: string, tenant: Tenant, request: FastifyRequest, reply: FastifyReply, account?: AccountProfile): Promise<void> {
    const client = this.clients.get(name) ?? refuse(unavailable(Messages.request.serviceUnavailable));
    // Before the count below, which must not be read and raised across an await.
    const written = this.ownWrites && (await this.ownWrites.pendingFor(pattern, tenant));
    const inFlight = this.inFlight.get(name) ?? 0;
    if (inFlight >= this.maxInFlight) refuse(unavailable(Messages.request.serviceUnavailable));
    const message: ServiceRequest = {
      tenant,
      ...(account && { account }),
      body: request.body,
      query: request.query as Record<string, unknown>,
      params: request.params as Record<string, string>,
      ...(tenant.environment === 'sandbox' && { clock_offset_ms: this.clockOffsetOf(tenant) }),
      deadline_ms: this.wallClock.now().getTime() + START_DEADLINE_MS,
      request_id: request.id,
      ...(written && { written }),
    };
    const trace = traceHeadersOf(request);
    if (trace) message.trace = trace;
    this.inFlight.set(name, inFlight + 1);
    // Connected outside the request (once; later calls find the connection open): the socket serves every request after.
    // No reply, whatever kept it (the connection refused, or dropped with the request in flight: unavailableDependency's
    // 'network'; no answer within 10 s), is the service not being there: 503 with Retry-After, and never sent again
    // here, since a request that reached the service may have been done (the merchant's repeat finds it by its id).
    const answer = await outsideRequest(() => client.connect())
      .then(() => firstValueFrom(client.send<ServiceReply>(pattern, message).pipe(timeout(REPLY_TIMEOUT_MS))))
      .catch(() => refuse(unavailable(Messages.request.serviceUnavailable)))
      .finally(() => this.inFlight.set(name, (this.inFlight.get(name) ?? 1) - 1));
    await this.ownWrites?.remember(tenant, answer);
    reply
      .status(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }
}
