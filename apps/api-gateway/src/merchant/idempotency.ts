import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiKeyDirectory } from '@pixauto/accounts';
import { Environment } from '@pixauto/contracts';
import { HttpError, Messages, toHttp, unavailable, validation } from '@pixauto/errors';
import type { SecretBox } from '@pixauto/secrets';
import { grantOf } from './api-key.guard';

// Idempotency-Key on every POST (docs/decisions/idempotency.md, as Stripe does and the IETF httpapi idempotency-key draft writes it):
// a POST carrying the header runs once per (account, environment, key) for 24 hours; a repeat with the same request
// gets the first answer again (`Idempotent-Replayed: true`), one with another request 422, one while the first still
// runs 409 with Retry-After. Kept in Redis, so it holds across gateway restarts and instances; each kept answer sealed
// (SECRETS_KEYS), as it may carry a secret (a webhook endpoint's, at its creation) and carries payers' names and documents.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept for repeats. */
const KEEP_MS = 24 * 3600_000;
/** How long a request may hold its key while it runs (services answer within 10 s); a gateway that died frees it then. */
const RUNNING_MS = 60_000;

type Stored = { fingerprint: string; state: 'running' } | { fingerprint: string; state: 'done'; status: number; body: string; contentType: string };

/** The header's key, or the refusal of a malformed one: 1 to 255 printable ASCII characters. */
export function idempotencyKeyOf(header: unknown): { key: string | undefined } | { refusal: ReturnType<typeof validation> } {
  if (header === undefined) return { key: undefined };
  return typeof header === 'string' && /^[\x20-\x7e]{1,255}$/.test(header) ? { key: header } : { refusal: validation(Messages.idempotency.keyInvalid) };
}

/** JSON with every object's keys sorted: two bodies that differ only in key order are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** What identifies "the same request": the route with its query, and the body. */
export const fingerprintOf = (method: string, url: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body)}`)
    .digest('base64url');

/** What a repeat gets, given what is stored under its key. */
export function repeatOutcome(stored: Stored, fingerprint: string): 'conflict' | 'running' | 'replay' {
  if (stored.fingerprint !== fingerprint) return 'conflict';
  return stored.state === 'running' ? 'running' : 'replay';
}

/** Answers that must not be replayed: the request may succeed when repeated. */
const retryable = (status: number): boolean => status >= 500 || status === 429;

interface Claimed {
  redisKey: string;
  fingerprint: string;
}

/** The Fastify hooks of one merchant listener. */
export class IdempotentPosts {
  private readonly logger = new Logger('Idempotency');
  private readonly claims = new WeakMap<FastifyRequest, Claimed>();

  constructor(
    private readonly redis: Redis,
    private readonly directory: ApiKeyDirectory,
    private readonly environment: Environment,
    private readonly box: SecretBox,
  ) {}

  install(fastify: FastifyInstance): void {
    // preHandler: after the body is parsed, before the route runs. The key is looked up here (the guard reuses the
    // answer) to scope the record by account; an invalid key is left to the route's guard (401).
    fastify.addHook('preHandler', (request, reply) => this.before(request, reply));
    fastify.addHook('onSend', (request, reply, payload) => this.after(request, reply, payload));
  }

  /**
   * Resolves to the reply when it answered: Fastify then waits for the answer to be written before it would run the
   * route (a send alone is not enough while an async onSend hook still runs, and the route would run as well).
   */
  private async before(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (request.method !== 'POST' || request.headers[IDEMPOTENCY_HEADER] === undefined) return;
    const asked = idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]);
    if ('refusal' in asked) return this.answer(reply, toHttp(asked.refusal));
    const grant = await grantOf(request, this.directory);
    if (!grant || grant.environment !== this.environment || asked.key === undefined) return;
    const redisKey = `idempotency:${grant.accountId}:${grant.environment}:${asked.key}`;
    const fingerprint = fingerprintOf(request.method, request.url, request.body);
    try {
      const claimed = await this.redis.set(redisKey, JSON.stringify({ fingerprint, state: 'running' } satisfies Stored), 'PX', RUNNING_MS, 'NX');
      if (claimed === 'OK') {
        this.claims.set(request, { redisKey, fingerprint });
        return undefined;
      }
      const raw = await this.redis.get(redisKey);
      if (raw === null) return this.answer(reply, { status: 409, body: { message: Messages.idempotency.inProgress } }, 1); // it expired just now
      const stored = JSON.parse(raw) as Stored;
      const outcome = repeatOutcome(stored, fingerprint);
      if (outcome === 'conflict') return this.answer(reply, { status: 422, body: { type: 'ValidationError', message: Messages.idempotency.otherRequest } });
      if (outcome === 'running' || stored.state !== 'done') return this.answer(reply, { status: 409, body: { message: Messages.idempotency.inProgress } }, 1);
      return reply.status(stored.status).header('idempotent-replayed', 'true').type(stored.contentType).send(this.box.open(stored.body));
    } catch (error) {
      // Without its store the promise cannot be kept: better no answer than a second execution.
      this.logger.warn(`idempotency store unavailable: ${String(error)}`);
      return this.answer(reply, toHttp(unavailable(Messages.request.serviceUnavailable)));
    }
  }

  private async after(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = this.claims.get(request);
    if (!claim) return payload;
    this.claims.delete(request);
    try {
      if (retryable(reply.statusCode) || typeof payload !== 'string') await this.redis.del(claim.redisKey);
      else {
        const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
        const stored: Stored = { fingerprint: claim.fingerprint, state: 'done', status: reply.statusCode, body: this.box.seal(payload), contentType };
        await this.redis.set(claim.redisKey, JSON.stringify(stored), 'PX', KEEP_MS);
      }
    } catch (error) {
      // The answer still goes out; a repeat within RUNNING_MS gets 409, after it runs again (the services' own keys,
      // such as transaction_id, still refuse a second creation).
      this.logger.warn(`idempotency record of ${claim.redisKey} not saved: ${String(error)}`);
    }
    return payload;
  }

  private answer(reply: FastifyReply, answer: HttpError, retryAfterSeconds?: number): FastifyReply {
    if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
    return reply
      .status(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  }
}
