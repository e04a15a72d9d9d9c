import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountProfiles, ApiKeyDirectory, ApiKeyGrant } from '@pixauto/accounts';
import { AccountProfile, DEFAULT_RATE_LIMITS, Environment, Tenant } from '@pixauto/contracts';
import { Messages, rateLimited, refuse } from '@pixauto/errors';
import { RateLimiter, rateLimitHeaders } from './rate-limit';

/** A request past the guard: its key's grant and its account's profile (read once, for the rate limit and the routes). */
export type AuthenticatedRequest = FastifyRequest & { grant: ApiKeyGrant; account: AccountProfile | undefined };

/** The tenant the request's key belongs to. */
export const tenantOf = (request: AuthenticatedRequest): Tenant => ({ accountId: request.grant.accountId, environment: request.grant.environment });

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const invalidKey = () => refuse({ kind: 'authentication', status: 401, code: 1, message: Messages.auth.apiKeyInvalid });

/** The Authorization header is the key itself (a `Bearer ` prefix is tolerated). */
export function apiKeyOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const key = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : header;
  return key.trim() || undefined;
}

const resolved = new WeakMap<FastifyRequest, Promise<ApiKeyGrant | undefined>>();

/** The grant of the request's key, looked up once per request (the Idempotency-Key hook asks before the guard). */
export function grantOf(request: FastifyRequest, directory: ApiKeyDirectory): Promise<ApiKeyGrant | undefined> {
  let grant = resolved.get(request);
  if (!grant) {
    const key = apiKeyOf(request.headers.authorization);
    grant = key === undefined ? Promise.resolve(undefined) : directory.resolve(key);
    resolved.set(request, grant);
  }
  return grant;
}

/**
 * Missing, unknown, revoked and other-environment keys all get the same 401; then the account's rate limit in the
 * key's environment (429), then read-only keys cannot write.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly directory: ApiKeyDirectory,
    private readonly profiles: AccountProfiles,
    /** None only in a bench pricing the rate limit (GATEWAY_HOOKS_OFF). */
    private readonly limiter: RateLimiter | undefined,
    private readonly environment: Environment,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const grant = await grantOf(request, this.directory);
    if (!grant || grant.environment !== this.environment) return invalidKey();
    request.account = await this.profiles.get(grant.accountId);
    const limit = (request.account?.rate_limit ?? DEFAULT_RATE_LIMITS)[this.environment];
    // Counted per account and environment, not per key: more keys are not more requests.
    const verdict = await this.limiter?.take(`${grant.accountId}:${grant.environment}`, limit);
    if (verdict) {
      void context.switchToHttp().getResponse<FastifyReply>().headers(rateLimitHeaders(verdict));
      if (!verdict.allowed) return refuse(rateLimited(Messages.request.rateLimited(limit), verdict.resetSeconds));
    }
    if (grant.readOnly && !READS.has(request.method)) {
      return refuse({ kind: 'authentication', status: 403, code: 2, message: Messages.auth.apiKeyReadOnly });
    }
    request.grant = grant;
    return true;
  }
}
