import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountProfile, ServiceReply, ServiceRequest, Tenant, WrittenPosition } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { SystemClock, TenantClockOffset } from '@pixauto/pix';
import { ServiceClient, traceHeadersOf } from '@pixauto/runtime';
import type { UpstreamName } from './gateway.config';
import type { OwnWrites } from './own-writes';

/** How long the gateway waits for a service's reply. */
const REPLY_TIMEOUT_MS = 10_000;
/** A request a service has not begun this long after the gateway sent it is refused there (deadline_ms): the 2 s left let one begun in time finish. */
const START_DEADLINE_MS = 8_000;

/**
 * The gateway's one way to the services: NestJS TCP messages (3-5x the throughput of HTTP on this hop, measured:
 * docs/performance.md "Gateway to service transport"), each request to one of the service's replicas (ServiceClient).
 * The service's reply is HTTP-shaped and goes back to the merchant as it is.
 */
export class Upstreams {
  private readonly clients: Map<UpstreamName, ServiceClient>;
  /** Deadlines are real time for every tenant: a sandbox test clock does not move them. */
  private readonly wallClock = new SystemClock();
  private readonly ownWrites?: OwnWrites;
  private readonly deadlines: boolean;
  private readonly tracing: boolean;

  constructor(
    addresses: Record<UpstreamName, string>,
    private readonly clockOffsetOf: TenantClockOffset,
    /** Beyond this many requests waiting on one service, 503 at once rather than a queue that outlives its callers. */
    maxInFlight: number,
    hooks: {
      /** The merchant's own writes, sent with its follower-fed reads (docs/decisions/read-your-writes.md). */
      ownWrites?: OwnWrites;
      /** Off only in a bench pricing them (GATEWAY_HOOKS_OFF): no deadline_ms, no trace headers. */
      deadline?: boolean;
      tracing?: boolean;
    } = {},
  ) {
    this.ownWrites = hooks.ownWrites;
    this.deadlines = hooks.deadline ?? true;
    this.tracing = hooks.tracing ?? true;
    this.clients = new Map(Object.entries(addresses).map(([name, address]) => [name as UpstreamName, new ServiceClient(address, { maxInFlight })]));
  }

  async relay(name: UpstreamName, pattern: string, tenant: Tenant, request: FastifyRequest, reply: FastifyReply, account?: AccountProfile): Promise<void> {
    const answer = await this.send(name, pattern, tenant, request, { query: request.query as Record<string, unknown>, account });
    reply.status(answer.status).headers(answer.headers ?? {});
    if (answer.json === undefined) reply.send(answer.body);
    else reply.type('application/json; charset=utf-8').send(answer.json);
  }

  /**
   * One of several calls the gateway composes into one answer (GET /v2/reports/daily-totals): the service's reply for
   * the gateway to read, with the query the gateway settled rather than the merchant's. Its own writes and refusals
   * travel as a relayed request's do.
   */
  async ask(name: UpstreamName, pattern: string, tenant: Tenant, request: FastifyRequest, query: Record<string, unknown>): Promise<ServiceReply> {
    return this.send(name, pattern, tenant, request, { query });
  }

  private async send(
    name: UpstreamName,
    pattern: string,
    tenant: Tenant,
    request: FastifyRequest,
    { query, account }: { query: Record<string, unknown>; account?: AccountProfile },
  ): Promise<ServiceReply> {
    const client = this.clients.get(name) ?? refuse(unavailable(Messages.request.serviceUnavailable));
    const written = this.ownWrites && (await this.ownWrites.pendingFor(pattern, tenant));
    const message: ServiceRequest = {
      tenant,
      ...(account && { account }),
      body: request.body,
      query,
      params: request.params as Record<string, string>,
      ...(tenant.environment === 'sandbox' && { clock_offset_ms: this.clockOffsetOf(tenant) }),
      ...(this.deadlines && { deadline_ms: this.wallClock.now().getTime() + START_DEADLINE_MS }),
      request_id: request.id,
      ...(written && { written }),
    };
    const trace = this.tracing ? traceHeadersOf(request) : undefined;
    if (trace) message.trace = trace;
    // No reply, whatever kept it (no replica accepting a connection, the connection dropped with the request in flight,
    // no answer within 10 s), is the service not being there: 503 with Retry-After. A request that was sent is never sent
    // again, since the replica may have done it (the merchant's repeat finds it by its id).
    const answer = await client.send<ServiceReply>(pattern, message, REPLY_TIMEOUT_MS);
    await this.ownWrites?.remember(tenant, answer.written);
    return answer;
  }

  /**
   * An operator's write to an account (its banks, credentials, signing secret) counts, for the reads of both its
   * environments, as one of the merchant's own: a receipt asked right after its banks were enabled waits for
   * receipt-service to know them.
   */
  async rememberAccountWrite(accountId: string, written: readonly WrittenPosition[]): Promise<void> {
    await Promise.all((['sandbox', 'production'] as const).map((environment) => this.ownWrites?.remember({ accountId, environment }, written)));
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }
}
