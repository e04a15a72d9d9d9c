import type { FastifyInstance } from 'fastify';
import { Messages, toHttp, validation } from '@pixauto/errors';

// Text no service can store (docs/decisions/requests.md): PostgreSQL refuses NUL in text and JSON, and an unpaired surrogate is not
// Unicode at all. Found anywhere in a request (path, query, body, keys included), it is refused here with a 400 that
// names where, before any service is asked, instead of failing deep down as a 500.

/** The path (`body.payer.name`, `params.id`, `query.x`) of the first string that is not storable text; undefined if none. */
export function unstorableTextAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorable(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorable(key)) return path;
      const found = unstorableTextAt(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** A surrogate code unit on its own (in a `u` pattern a well-formed pair is one code point, never Cs). */
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const isStorable = (text: string): boolean => !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);

/** Refuses, on every route of a listener, a request carrying text no service could store. */
export function refuseUnstorableText(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', async (request, reply) => {
    const at = unstorableTextAt(request.params, 'params') ?? unstorableTextAt(request.query, 'query') ?? unstorableTextAt(request.body, 'body');
    if (at === undefined) return;
    const answer = toHttp(validation(Messages.request.unstorableText(at)));
    await reply.status(answer.status).send(answer.body);
  });
}
