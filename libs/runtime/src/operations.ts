import { Controller, DynamicModule, Get, Header, INestApplicationContext, Logger, Module, ServiceUnavailableException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { Admin, Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { consumerGroups } from '@pixauto/messaging';
import { METRICS_CONTENT_TYPE, metricsText, observeOutbox, startProcessMetrics } from '@pixauto/metrics';
import { flushLogs, NestLogger, rootLogger, startTracing } from '@pixauto/telemetry';
import { ServiceConfig } from './config';
import { KAFKA } from './event-sourcing.module';
import { DrainingOperations } from './shutdown';

/** A dependency that has not answered within this is down: the probe answers in time even when one hangs. */
const CHECK_TIMEOUT_MS = 2000;

const within = <T>(promise: Promise<T>, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });

const messageOf = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

/** What an app depends on, found in its context once it has started. */
interface Dependencies {
  dataSource?: DataSource;
  kafka?: Kafka;
  redis?: Redis;
}

/**
 * What /health/ready checks. Until the app has started (its migrations ran, its topics exist, its consumers joined
 * their groups, which Nest's start-up awaits) only that it is starting; then each dependency, through the app's own
 * clients: the database through its pool (never a connection of its own: PostgreSQL's 100 are shared out), Kafka
 * through one admin connection, the consumers' group membership, and Redis where the app uses it.
 */
class Readiness {
  private dependencies?: Dependencies;
  private admin?: Admin;
  private draining = false;

  started(dependencies: Dependencies): void {
    this.dependencies = dependencies;
  }

  /** From the shutdown signal on: not ready, whatever the dependencies say, so that traffic goes elsewhere. */
  drain(): void {
    this.draining = true;
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
  }

  checks(health: HealthIndicatorService): HealthIndicatorFunction[] {
    if (this.draining) return [() => health.check('app').down({ message: 'shutting down' })];
    const dependencies = this.dependencies;
    if (!dependencies) return [() => health.check('app').down({ message: 'starting' })];
    const { dataSource, kafka, redis } = dependencies;
    return [
      ...(dataSource ? [() => this.database(health, dataSource)] : []),
      ...(kafka ? [() => this.kafka(health, kafka), () => this.consumers(health)] : []),
      ...(redis ? [() => this.redis(health, redis)] : []),
    ];
  }

  /** One query does both: the database answers, and every migration of the app is recorded as run. */
  private async database(health: HealthIndicatorService, dataSource: DataSource) {
    const indicator = health.check('database');
    try {
      const rows: { name: string }[] = await within(
        dataSource.query(`SELECT name FROM "${dataSource.options.migrationsTableName ?? 'migrations'}"`),
        'PostgreSQL',
      );
      const run = new Set(rows.map((row) => row.name));
      const pending = dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name).filter((name) => !run.has(name));
      return pending.length === 0 ? indicator.up({ migrations: run.size }) : indicator.down({ pending });
    } catch (error) {
      return indicator.down({ message: messageOf(error) });
    }
  }

  private async kafka(health: HealthIndicatorService, kafka: Kafka) {
    const indicator = health.check('kafka');
    try {
      // No retries: the next probe is the retry.
      this.admin ??= kafka.admin({ retry: { retries: 0 } });
      const admin = this.admin;
      const cluster = await within(
        admin.connect().then(() => admin.describeCluster()),
        'Kafka',
      );
      return indicator.up({ brokers: cluster.brokers.length });
    } catch (error) {
      await this.admin?.disconnect().catch(() => undefined);
      this.admin = undefined;
      return indicator.down({ message: messageOf(error) });
    }
  }

  private consumers(health: HealthIndicatorService) {
    const indicator = health.check('consumers');
    const groups = consumerGroups();
    const waiting = groups.filter((group) => !group.joined).map((group) => group.groupId);
    return waiting.length === 0 ? indicator.up({ groups: groups.map((group) => group.groupId) }) : indicator.down({ waiting });
  }

  private async redis(health: HealthIndicatorService, redis: Redis) {
    const indicator = health.check('redis');
    try {
      await within(redis.ping(), 'Redis');
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: messageOf(error) });
    }
  }
}

@Controller()
class OperationsController {
  private readonly logger = new Logger('Readiness');
  /** Logged when it changes, not at every probe. */
  private lastState = 'starting';

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: Readiness,
  ) {}

  /** The process answers: its event loop turns. */
  @Get('health/live')
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('health/ready')
  @HealthCheck()
  async ready(): Promise<HealthCheckResult> {
    try {
      const result = await this.health.check(this.readiness.checks(this.indicators));
      this.report('ready');
      return result;
    } catch (error) {
      const failed: Record<string, unknown> =
        error instanceof ServiceUnavailableException ? ((error.getResponse() as HealthCheckResult).error ?? {}) : { probe: messageOf(error) };
      if (!('app' in failed)) this.report(`not ready: ${Object.keys(failed).join(', ')}`, JSON.stringify(failed));
      throw error;
    }
  }

  @Get('metrics')
  @Header('content-type', METRICS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return metricsText();
  }

  private report(state: string, detail = ''): void {
    if (state === this.lastState) return;
    this.lastState = state;
    if (state === 'ready') this.logger.log('ready');
    else this.logger.warn(`${state} ${detail}`);
  }
}

@Module({})
class OperationsModule {
  static of(readiness: Readiness): DynamicModule {
    return {
      module: OperationsModule,
      // Transitions are logged by the controller; terminus would log every failed probe.
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [OperationsController],
      providers: [{ provide: Readiness, useValue: readiness }],
    };
  }
}

export interface OperationsListener extends DrainingOperations {
  /** The app has started: /health/ready now checks its dependencies (found in `app`; Redis, which few use, given). */
  started(app: INestApplicationContext, options?: { redis?: Redis }): void;
  /** The same for an app without a database or Kafka of its own (the console server): Redis alone is checked. */
  startedOnRedis(redis: Redis): void;
}

/**
 * The ops listener of a process, on its own port (OPS_PORT), never on one merchants or the gateway reach: no API key,
 * and the metrics are not public. Started first, so that /health/live answers while the app starts and /health/ready
 * says it is starting.
 */
export async function startOperations(config: Pick<ServiceConfig, 'service' | 'host' | 'opsPort'>): Promise<OperationsListener> {
  // First of all: the process's logger is named for the app, and tracing (when configured) is on before any request.
  rootLogger(config.service);
  const tracing = startTracing(config.service);
  startProcessMetrics(config.service);
  const readiness = new Readiness();
  // Nest's own logger: creating an application sets it for the whole process.
  const app = await NestFactory.create<NestFastifyApplication>(OperationsModule.of(readiness), new FastifyAdapter(), { logger: new NestLogger() });
  await app.listen(config.opsPort, config.host);
  return {
    draining: () => readiness.drain(),
    close: async () => {
      await readiness.close();
      await app.close();
      await tracing?.shutdown();
      flushLogs();
    },
    started(started, options = {}) {
      const dataSource = started.get(DataSource, { strict: false });
      observeOutbox(async () => {
        const [row] = await within(
          dataSource.query('SELECT count(*)::int AS backlog, coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0)::float8 AS age FROM outbox'),
          'PostgreSQL',
        );
        return { backlog: row.backlog, oldestAgeSeconds: row.age };
      });
      readiness.started({ dataSource, kafka: started.get<symbol, Kafka>(KAFKA, { strict: false }), redis: options.redis });
    },
    startedOnRedis(redis) {
      readiness.started({ redis });
    },
  };
}
