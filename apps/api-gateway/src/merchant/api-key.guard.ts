import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyDirectory, ApiKeyGrant } from '@pixauto/accounts';
import { Environment, Tenant } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';

export type AuthenticatedRequest = FastifyRequest & { grant: ApiKeyGrant };

/** The tenant the request's key belongs to. */
export const tenantOf = (request: AuthenticatedRequest): Tenant => ({ accountId: request.grant.accountId, environment: request.grant.environment });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const invalidKey = () => refuse({ kind: 'authentication', status: 401, code: 1, message: Messages.auth.apiKeyInvalid });

/** service-api.md §5: the Authorization header is the key itself (a `Bearer ` prefix is tolerated). */
export function apiKeyOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const key = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : header;
  return key.trim() || undefined;
}

/** Missing, unknown, revoked and other-environment keys all get the same 401; read-only keys cannot write. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly directory: ApiKeyDirectory, private readonly environment: Environment) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = apiKeyOf(request.headers.authorization);
    const grant = key === undefined ? undefined : await this.directory.resolve(key);
    if (!grant || grant.environment !== this.environment) return invalidKey();
    if (grant.readOnly && !READS.has(request.method)) {
      return refuse({ kind: 'authentication', status: 403, code: 2, message: Messages.auth.apiKeyReadOnly });
    }
    request.grant = grant;
    return true;
  }
}
