import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemException, Problems } from '../domain/problems';

/** Token -> client, remembered: a hash per request was a measurable share of a busy simulator's time. */
const clients = new Map<string, string>();

/**
 * Who is calling: any `Authorization: Bearer <token>` is a client of its own, and every resource belongs to the
 * client that created it (production and sandbox, configured with different tokens, never see each other's
 * data). Kept as the token's SHA-256, never the token. Without a bearer token: 403 AcessoNegado.
 */
export function clientOf(authorization: unknown): string {
  const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (token === undefined) throw new ProblemException(Problems.accessDenied());
  let client = clients.get(token);
  if (client === undefined) {
    client = createHash('sha256').update(token).digest('hex');
    if (clients.size >= 1000) clients.clear();
    clients.set(token, client);
  }
  return client;
}

export const BankClient = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  clientOf(context.switchToHttp().getRequest<FastifyRequest>().headers.authorization),
);
