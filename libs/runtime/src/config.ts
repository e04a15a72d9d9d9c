/** Settings of one process, from environment variables with defaults that work on one machine (README lists them). */
export interface ServiceConfig {
  service: string;
  host: string;
  port: number;
  databaseServerUrl: string;
  databaseName: string;
  kafkaBrokers: string[];
  redisUrl: string;
}

export function serviceConfig(service: string, defaultPort: number, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const prefix = env.DATABASE_PREFIX ?? 'pixauto';
  return {
    service,
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? defaultPort),
    // DATABASE_URL names the server and credentials; each service keeps its own database on it.
    databaseServerUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    databaseName: `${prefix}_${service.replace(/-service$/, '').replace(/-/g, '_')}`,
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/** The URL of a service's own database on the configured server. */
export function databaseUrl(config: Pick<ServiceConfig, 'databaseServerUrl' | 'databaseName'>): string {
  const url = new URL(config.databaseServerUrl);
  url.pathname = `/${config.databaseName}`;
  return url.toString();
}
