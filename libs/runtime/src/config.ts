/**
 * Settings of one process, from environment variables with defaults that work on one machine (docs/operations.md
 * "Environment variables" lists them).
 */
export interface ServiceConfig {
  service: string;
  host: string;
  port: number;
  /** The ops listener: /health/live, /health/ready and /metrics, apart from the ports merchants or the gateway reach. */
  opsPort: number;
  databaseServerUrl: string;
  databaseName: string;
  kafkaBrokers: string[];
  redisUrl: string;
  /** The most PostgreSQL connections this process opens (its pool; opened on demand, closed when idle). */
  databasePoolSize: number;
  /** How long a request waits for a free connection of the pool before it is answered 503. */
  databasePoolWaitMs: number;
  /** After SIGTERM, how long the process keeps serving while not ready, before it drains (load balancers notice). */
  shutdownDelayMs: number;
}

/**
 * PostgreSQL allows 100 connections (97 to applications) for the whole system, so each process has its share and
 * the shares add up to 92, leaving room for migrations, scripts and psql. The write paths get most: concurrent
 * commits share one WAL flush. DATABASE_POOL_SIZE overrides a share; DATABASE_POOL_REPLICAS (the processes of the app on
 * one server, as `npm start -- --replicas N` runs them) divides it among them.
 */
export const DATABASE_POOL_SHARES: Readonly<Record<string, number>> = {
  'limits-service': 17,
  'payments-service': 22,
  'recurrence-service': 16,
  'bank-simulator': 10,
  'solicitation-service': 6,
  gateway: 6,
  'payout-query-service': 6,
  'webhook-dispatcher': 6,
  'receipt-service': 3,
};
const DEFAULT_POOL_SHARE = 6;
/**
 * payout-query-service's CSV exports have a pool of their own beside its share (3 more: 95 in all), so that exports
 * whose readers stall can never take the connections its lookups need (docs/decisions/payout-lookups.md).
 * PAYOUT_EXPORT_POOL_SIZE overrides it; DATABASE_POOL_REPLICAS divides it as it does the shares.
 */
export const PAYOUT_EXPORT_POOL_SHARE = 3;
/** The connections the system's pools hold, one process of each app: what PostgreSQL's 97 must cover. */
export const DATABASE_POOL_BUDGET = Object.values(DATABASE_POOL_SHARES).reduce((sum, share) => sum + share, 0) + PAYOUT_EXPORT_POOL_SHARE;
/** Without OPS_PORT, the ops listener is the process's port + 50 (3050, 4051, ...): free in every profile of system.cjs. */
const OPS_PORT_OFFSET = 50;
/** Long enough for a request the gateway took just before a service's SIGTERM to reach it; Kubernetes sets more. */
const DEFAULT_SHUTDOWN_DELAY_MS = 1000;

export function serviceConfig(service: string, defaultPort: number, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const prefix = env.DATABASE_PREFIX ?? 'pixauto';
  const port = Number(env.PORT ?? defaultPort);
  return {
    service,
    host: env.HOST ?? '127.0.0.1',
    port,
    opsPort: Number(env.OPS_PORT ?? port + OPS_PORT_OFFSET),
    // DATABASE_URL names the server and credentials; each service keeps its own database on it.
    databaseServerUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    databaseName: `${prefix}_${service.replace(/-service$/, '').replace(/-/g, '_')}`,
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    databasePoolSize: Number(
      env.DATABASE_POOL_SIZE ?? Math.ceil((DATABASE_POOL_SHARES[service] ?? DEFAULT_POOL_SHARE) / Number(env.DATABASE_POOL_REPLICAS ?? 1)),
    ),
    databasePoolWaitMs: Number(env.DATABASE_POOL_WAIT_MS ?? 5_000),
    shutdownDelayMs: Number(env.SHUTDOWN_DELAY_MS ?? DEFAULT_SHUTDOWN_DELAY_MS),
  };
}

/** The URL of a service's own database on the configured server. */
export function databaseUrl(config: Pick<ServiceConfig, 'databaseServerUrl' | 'databaseName'>): string {
  const url = new URL(config.databaseServerUrl);
  url.pathname = `/${config.databaseName}`;
  return url.toString();
}
