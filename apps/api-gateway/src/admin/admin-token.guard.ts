import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Messages, refuse } from '@pixauto/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer $ADMIN_TOKEN` (the operator's), compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(`Bearer ${token}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (typeof header === 'string' && timingSafeEqual(digest(header), this.expected)) return true;
    return refuse({ kind: 'authentication', status: 401, code: 1, message: Messages.auth.adminTokenInvalid });
  }
}
