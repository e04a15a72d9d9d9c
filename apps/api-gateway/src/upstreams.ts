import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { AccountProfile, ServiceReply, ServiceRequest, Tenant } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { TenantClockOffset } from '@pixauto/pix';
import { UpstreamName } from './gateway.config';

const REPLY_TIMEOUT_MS = 10_000;

/**
 * The gateway's one way to the services: NestJS TCP messages (3-5x the throughput of HTTP on this hop, measured:
 * README "Performance"). The service's reply is HTTP-shaped and goes back to the merchant as it is.
 */
export class Upstreams {
  private readonly clients: Map<UpstreamName, ClientProxy>;

  constructor(addresses: Record<UpstreamName, string>, private readonly clockOffsetOf: TenantClockOffset = () => 0) {
    this.clients = new Map(
      Object.entries(addresses).map(([name, address]) => {
        const [host, port] = address.split(':');
        return [name as UpstreamName, ClientProxyFactory.create({ transport: Transport.TCP, options: { host, port: Number(port) } })];
      }),
    );
  }

  async relay(name: UpstreamName, pattern: string, tenant: Tenant, request: FastifyRequest, reply: FastifyReply, account?: AccountProfile): Promise<void> {
    const client = this.clients.get(name) ?? refuse(unavailable(Messages.request.serviceUnavailable));
    const message: ServiceRequest = {
      tenant,
      ...(account && { account }),
      body: request.body,
      query: request.query as Record<string, unknown>,
      params: request.params as Record<string, string>,
      ...(tenant.environment === 'sandbox' && { clock_offset_ms: this.clockOffsetOf(tenant) }),
    };
    const answer = await firstValueFrom(client.send<ServiceReply>(pattern, message).pipe(timeout(REPLY_TIMEOUT_MS))).catch(() =>
      refuse(unavailable(Messages.request.serviceUnavailable)),
    );
    reply.status(answer.status).headers(answer.headers ?? {}).send(answer.body);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }
}
