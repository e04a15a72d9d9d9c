import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Messages, refuse } from '@pixauto/errors';
import { Gateway } from './gateway';
import { isRead } from './roles';
import { ConsoleSession, csrfMatches, SESSION_COOKIE, Sessions } from './sessions';

export const CSRF_HEADER = 'x-csrf-token';

/** Routes open without a session (sign-in itself, the console server's OpenAPI document). */
export const WithoutSession = () => SetMetadata('console:without-session', true);

export type SignedInRequest = FastifyRequest & { session: ConsoleSession; sessionId: string };

/** The value of one cookie of the request. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * A request from another site is refused before anything else: browsers send Origin with every request that changes
 * something, and it must be this server's own. That covers sign-in too, which has no session (and so no CSRF token) yet.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers['sec-fetch-site'] === undefined || request.headers['sec-fetch-site'] === 'same-origin';
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * Every console route but those marked WithoutSession needs a session (401 without one, or once its user is removed), and every request that
 * changes something needs the session's CSRF token in X-CSRF-Token and to come from this origin (403 otherwise).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: Sessions,
    private readonly reflector: Reflector,
    private readonly gateway: Gateway,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const writes = !isRead(request.method);
    if (writes && !sameOrigin(request)) return refuse({ kind: 'forbidden', message: Messages.console.originRefused });
    if (this.reflector.get<boolean>('console:without-session', context.getHandler())) return true;
    const sessionId = cookieOf(request, SESSION_COOKIE);
    const found = await this.sessions.find(sessionId);
    const session =
      found && sessionId ? await this.sessions.recheck(sessionId, found, (user) => this.gateway.roleOf(user.account_id, user.user_id)) : undefined;
    if (!session || !sessionId) return refuse({ kind: 'authentication', status: 401, code: 1, message: Messages.console.signedOut });
    if (writes && !csrfMatches(session, request.headers[CSRF_HEADER])) return refuse({ kind: 'forbidden', message: Messages.console.csrf });
    Object.assign(request, { session, sessionId });
    return true;
  }
}
