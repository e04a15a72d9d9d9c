// "A server we depend on is not there right now": the one classification every service's reply filter and the
// gateway use, so that a database restart, a Redis or Kafka outage or a dropped connection is answered 503 with
// Retry-After (the client retries), never 500 (a bug of ours). By shape only (code, name, message), so it needs none
// of the client libraries: pg, pg-pool, TypeORM, ioredis, kafkajs, Node's sockets and NestJS's TCP client.

/** Which kind of server failed to answer. */
export type Dependency = 'postgres' | 'redis' | 'kafka' | 'network';

/**
 * PostgreSQL SQLSTATEs that mean "not now" (appendix A of its manual): too many connections, the server shutting down
 * (57P01 admin_shutdown, 57P02 crash_shutdown), starting up or shutting down (57P03 cannot_connect_now), a database
 * being dropped or recovered (57P04), and class 08, connection exceptions, but 08P01 (a protocol violation is a bug).
 */
const POSTGRES_CODES = new Set(['53300', '57P01', '57P02', '57P03', '57P04', '08000', '08001', '08003', '08004', '08006', '08007']);

/** What pg and pg-pool say when a connection is lost, cannot be made in time, or a client has lost its connection. */
const POSTGRES_MESSAGES = [
  /^Connection terminated/, // "Connection terminated unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/, // pg-pool: no free connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^terminating connection due to administrator command$/,
  /^the database system is (shutting down|starting up|in recovery mode|not yet accepting connections)/,
];

/** Node's socket errors: the peer is not listening, went away, or does not answer (any client, any server). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/** ioredis: retries used up while disconnected, the connection closed under a command, a command past commandTimeout. */
const REDIS_NAMES = new Set(['MaxRetriesPerRequestError']);
const REDIS_MESSAGES = [/^Connection is closed\.$/, /^Command timed out$/, /^Stream isn't writeable and enableOfflineQueue options is false$/];
/** Redis's own replies that mean "not now": loading its data set, no master, a cluster not serving. */
const REDIS_REPLIES = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) /;

/** kafkajs: no broker reachable, a connection lost or timed out, no leader or coordinator while the cluster recovers. */
const KAFKA_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSLockTimeout',
]);
const KAFKA_PROTOCOL_TYPES = new Set([
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_LEADER_FOR_PARTITION',
  'BROKER_NOT_AVAILABLE',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'KAFKA_STORAGE_ERROR',
]);

/**
 * NestJS's TCP client when the service's connection closes with requests in flight, and RxJS's `timeout` operator
 * when a service does not answer in time: the service was not there for this request.
 */
const SERVICE_MESSAGES = [/^Connection closed$/];
const SERVICE_NAMES = new Set(['TimeoutError']);

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  type?: unknown;
  errno?: unknown;
  cause?: unknown;
  driverError?: unknown;
  originalError?: unknown;
  errors?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function classifyOne(error: ErrorShape): Dependency | undefined {
  const name = text(error.name);
  const message = text(error.message);
  const code = text(error.code);
  if (KAFKA_NAMES.has(name) || (name.startsWith('KafkaJS') && KAFKA_PROTOCOL_TYPES.has(text(error.type)))) return 'kafka';
  if (REDIS_NAMES.has(name) || REDIS_MESSAGES.some((pattern) => pattern.test(message)) || (name === 'ReplyError' && REDIS_REPLIES.test(message)))
    return 'redis';
  // pg's DatabaseError carries the SQLSTATE; TypeORM's QueryFailedError copies it beside its driverError.
  if (POSTGRES_CODES.has(code) || POSTGRES_MESSAGES.some((pattern) => pattern.test(message))) return 'postgres';
  if (SOCKET_CODES.has(code)) return 'network';
  if (SERVICE_NAMES.has(name) || SERVICE_MESSAGES.some((pattern) => pattern.test(message))) return 'network';
  return undefined;
}

/**
 * The dependency that was not there, when `error` (or what it wraps: `cause`, TypeORM's `driverError`, an
 * AggregateError's `errors`, e.g. Node's connect to every address of a host) says so; undefined for anything else,
 * which stays an internal error.
 */
export function unavailableDependency(error: unknown): Dependency | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): Dependency | undefined => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 5) return undefined;
    seen.add(value);
    const shape = value as ErrorShape;
    const found = classifyOne(shape);
    if (found) return found;
    for (const inner of [shape.cause, shape.driverError, shape.originalError]) {
      const wrapped = visit(inner, depth + 1);
      if (wrapped) return wrapped;
    }
    if (Array.isArray(shape.errors) && shape.errors.length > 0) {
      // Every attempt failed for want of a server (Node's happy eyeballs; a pool's several tries).
      const each = shape.errors.map((inner) => visit(inner, depth + 1));
      if (each.every((dependency) => dependency !== undefined)) return each[0];
    }
    return undefined;
  };
  return visit(error, 0);
}

export const isDependencyUnavailable = (error: unknown): boolean => unavailableDependency(error) !== undefined;
