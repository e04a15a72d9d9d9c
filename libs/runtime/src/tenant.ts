import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ENVIRONMENTS, Environment, Tenant, TENANT_HEADERS } from '@pixauto/contracts';

/** The tenant the gateway authenticated (services sit behind the gateway and trust its headers). */
export function tenantOf(request: Pick<FastifyRequest, 'headers'>): Tenant {
  const accountId = request.headers[TENANT_HEADERS.accountId];
  const environment = request.headers[TENANT_HEADERS.environment];
  if (typeof accountId !== 'string' || !ENVIRONMENTS.includes(environment as Environment)) {
    throw new Error('request reached a service without a tenant: only the gateway may call services');
  }
  return { accountId, environment: environment as Environment };
}

export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): Tenant =>
  tenantOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
