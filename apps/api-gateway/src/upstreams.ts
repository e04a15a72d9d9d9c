import type { FastifyReply, FastifyRequest } from 'fastify';
import { Pool } from 'undici';
import { Tenant, TENANT_HEADERS } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { UpstreamName } from './gateway.config';

/**
 * The gateway's one way to the services: HTTP/1.1 over keep-alive pools (chosen by measurement, README).
 * The service's answer (status and body) goes back to the merchant as it is.
 */
export class Upstreams {
  private readonly pools: Map<UpstreamName, Pool>;

  constructor(urls: Record<UpstreamName, string>) {
    this.pools = new Map(Object.entries(urls).map(([name, url]) => [name as UpstreamName, new Pool(url, { connections: 64, pipelining: 1 })]));
  }

  async relay(name: UpstreamName, tenant: Tenant, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const pool = this.pools.get(name) ?? refuse(unavailable(Messages.request.serviceUnavailable));
    const hasBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
    const answer = await pool
      .request({
        method: request.method as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
        path: request.url,
        headers: {
          [TENANT_HEADERS.accountId]: tenant.accountId,
          [TENANT_HEADERS.environment]: tenant.environment,
          [TENANT_HEADERS.requestId]: String(request.id),
          ...(hasBody && { 'content-type': 'application/json' }),
        },
        body: hasBody ? JSON.stringify(request.body) : undefined,
      })
      .catch(() => refuse(unavailable(Messages.request.serviceUnavailable)));
    const body = await answer.body.text();
    reply.status(answer.statusCode).header('content-type', answer.headers['content-type'] ?? 'application/json; charset=utf-8').send(body);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
