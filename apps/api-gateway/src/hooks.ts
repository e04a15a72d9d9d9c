// The gateway's per-request hooks, by name, and GATEWAY_HOOKS_OFF: `npm run bench` turns each off in one run of its
// own to price it (docs/performance.md "The price of each gateway hook"). No imports: the bench reads this list from
// the built file, so the names it turns off are the ones the gateway knows.

/**
 * Every hook a merchant request passes through in the gateway that a run may leave out, in the order they run:
 * - `drain`: the listener's count of requests in flight and its refusal once draining (GracefulShutdown); off, a
 *   SIGTERM closes the listener with no count of what is in flight.
 * - `body-checks`: a body on a GET refused, JSON naming a key twice refused (a scan before the parse).
 * - `request-id`: the request's id (the caller's X-Request-Id or a UUID) returned in X-Request-Id and bound to
 *   everything its handling logs and appends.
 * - `tracing`: the span of the request and its trace headers to the service, as it costs with tracing off (no SDK).
 * - `text-guard`: text no service can store (NUL, unpaired surrogates) refused anywhere in the request.
 * - `idempotency`: the Idempotency-Key of a POST claimed and its answer kept in Redis.
 * - `rate-limit`: the API key's sliding window in Redis and the RateLimit headers.
 * - `own-writes`: read-your-writes: a follower-fed read asks Redis for the merchant's recent writes, a write's events
 *   are remembered there.
 * - `deadline`: the time past which the service refuses to begin the request, sent with it.
 * - `metrics`: the request's count and duration in the Prometheus histogram.
 * - `logging`: the access line.
 * - `request-log`: the request's line in the console's request log, kept in memory and written in batches.
 * - `audit`: a customer limit set or a webhook endpoint changed, written to the audit log before it is answered (one
 *   INSERT); every other request a comparison or two. Off only to price it: the refusal below keeps every deployment's
 *   record whole.
 */
export const GATEWAY_HOOKS = [
  'drain',
  'body-checks',
  'request-id',
  'tracing',
  'text-guard',
  'idempotency',
  'rate-limit',
  'own-writes',
  'deadline',
  'metrics',
  'logging',
  'request-log',
  'audit',
] as const;
export type GatewayHook = (typeof GATEWAY_HOOKS)[number];

/** The bench profile's databases (deploy/scripts/system.cjs): the only ones a gateway with hooks off may use. */
export const BENCH_DATABASE_PREFIX = 'pixauto_bench';

/**
 * GATEWAY_HOOKS_OFF, a comma-separated list of hooks: for the bench only. A gateway is refused at start when the list
 * names a hook it does not have, or when it is set anywhere but on the bench profile's databases (DATABASE_PREFIX
 * pixauto_bench) or under NODE_ENV=production (the image and the manifests set it), so no deployment runs without its
 * rate limits or its idempotency by a stray variable.
 */
export function hooksOffOf(env: NodeJS.ProcessEnv): ReadonlySet<GatewayHook> {
  const names = (env.GATEWAY_HOOKS_OFF ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return new Set();
  if (env.NODE_ENV === 'production' || env.DATABASE_PREFIX !== BENCH_DATABASE_PREFIX) {
    throw new Error(`GATEWAY_HOOKS_OFF is for the bench only: refused with NODE_ENV=${env.NODE_ENV} and DATABASE_PREFIX=${env.DATABASE_PREFIX}`);
  }
  const unknown = names.filter((name) => !(GATEWAY_HOOKS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`GATEWAY_HOOKS_OFF names no hook of the gateway: ${unknown.join(', ')} (its hooks: ${GATEWAY_HOOKS.join(', ')})`);
  return new Set(names as GatewayHook[]);
}
