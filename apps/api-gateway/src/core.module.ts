import { BeforeApplicationShutdown, Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { ACCOUNT_MIGRATIONS, AccountProfiles, AccountsAdmin, ApiKeyDirectory, AuditLogReader, ConsoleUsers, HashSlots } from '@pixauto/accounts';
import { Topics } from '@pixauto/contracts';
import { EventStore } from '@pixauto/event-store';
import { SecretBox } from '@pixauto/secrets';
import { Clock } from '@pixauto/pix';
import {
  keepRequestLogDays,
  RequestLog1763800000950,
  RequestLogConsoleUser1763800000972,
  RequestLogKeyLastUse1763800000995,
  RequestLogReader,
  RequestLogWriter,
} from '@pixauto/request-log';
import { CLOCK, EventSourcingModule, PeriodicTask, TenantClocks } from '@pixauto/runtime';
import { gatewayConfig } from './gateway.config';
import { RateLimiter } from './merchant/rate-limit';
import { SandboxClocks } from './sandbox-clocks';
import { SandboxListeners } from './sandbox-listeners';
import { OwnWrites } from './own-writes';
import { Upstreams } from './upstreams';

export const config = gatewayConfig();
export const REDIS = Symbol('REDIS');
/** A Redis that stalls must not hold requests: each use has its answer without it (DB fallback, 503, no limit). */
const REDIS_COMMAND_TIMEOUT_MS = 1000;

/** What the three listeners share: the gateway's own database (accounts, keys), Redis and the pools to the services. */
@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      // TypeORM runs them in the order of their timestamps, the two libraries' interleaved.
      migrations: [...ACCOUNT_MIGRATIONS, RequestLog1763800000950, RequestLogConsoleUser1763800000972, RequestLogKeyLastUse1763800000995],
      topics: [Topics.accounts, Topics.sandboxClock],
    }),
  ],
  providers: [
    {
      provide: REDIS,
      useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS }),
    },
    { provide: ApiKeyDirectory, inject: [REDIS, DataSource], useFactory: (redis: Redis, db: DataSource) => new ApiKeyDirectory(redis, db) },
    { provide: AccountProfiles, inject: [REDIS, DataSource], useFactory: (redis: Redis, db: DataSource) => new AccountProfiles(redis, db) },
    { provide: RateLimiter, inject: [REDIS], useFactory: (redis: Redis) => new RateLimiter(redis) },
    { provide: SecretBox, useFactory: () => SecretBox.fromEnvironment() },
    {
      provide: AccountsAdmin,
      inject: [EventStore, DataSource, ApiKeyDirectory, AccountProfiles, CLOCK, SecretBox],
      useFactory: (store: EventStore, db: DataSource, directory: ApiKeyDirectory, profiles: AccountProfiles, clock: Clock, box: SecretBox) =>
        new AccountsAdmin(store, db, directory, profiles, clock, box),
    },
    {
      provide: ConsoleUsers,
      inject: [DataSource, CLOCK],
      useFactory: (db: DataSource, clock: Clock) => new ConsoleUsers(db, clock, config.consolePublicUrl, new HashSlots(config.passwordHashesAtOnce)),
    },
    {
      provide: Upstreams,
      inject: [TenantClocks, REDIS],
      useFactory: (clocks: TenantClocks, redis: Redis) =>
        new Upstreams(config.upstreams, clocks.offsetOf, config.upstreamMaxInFlight, {
          ownWrites: config.hooksOff.has('own-writes') ? undefined : new OwnWrites(redis),
          deadline: !config.hooksOff.has('deadline'),
          tracing: !config.hooksOff.has('tracing'),
        }),
    },
    {
      provide: RequestLogWriter,
      inject: [DataSource],
      useFactory: (db: DataSource) => {
        const writer = new RequestLogWriter(db);
        writer.start();
        return writer;
      },
    },
    { provide: AuditLogReader, inject: [DataSource], useFactory: (db: DataSource) => new AuditLogReader(db.manager) },
    {
      provide: RequestLogReader,
      inject: [DataSource, CLOCK],
      useFactory: (db: DataSource, clock: Clock) => new RequestLogReader(db.manager, () => clock.now(), config.requestLogRetentionDays),
    },
    {
      // The request log's days: the next ones made ahead, those past the retention dropped whole.
      provide: 'RequestLogDays',
      inject: [DataSource, CLOCK],
      useFactory: (db: DataSource, clock: Clock) =>
        new PeriodicTask('RequestLogDays', 3600_000, () => keepRequestLogDays(db.manager, clock.now(), config.requestLogRetentionDays)),
    },
    {
      provide: SandboxClocks,
      inject: [EventStore, CLOCK, TenantClocks],
      useFactory: (store: EventStore, clock: Clock, clocks: TenantClocks) => new SandboxClocks(store, clock, clocks),
    },
    { provide: SandboxListeners, inject: [REDIS], useFactory: (redis: Redis) => new SandboxListeners(redis) },
  ],
  exports: [
    ApiKeyDirectory,
    AccountProfiles,
    AccountsAdmin,
    AuditLogReader,
    ConsoleUsers,
    Upstreams,
    SandboxClocks,
    SandboxListeners,
    RateLimiter,
    RequestLogWriter,
    RequestLogReader,
  ],
})
export class GatewayCoreModule implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('GatewayCoreModule');

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly upstreams: Upstreams,
    private readonly requestLog: RequestLogWriter,
    private readonly accounts: AccountsAdmin,
    private readonly listeners: SandboxListeners,
  ) {}

  /** Accounts opened with one shared signing secret keep it for production and get a sandbox secret of their own. */
  async onApplicationBootstrap(): Promise<void> {
    const issued = await this.accounts.issueMissingSandboxSecrets().catch((error: unknown) => {
      // Not fatal: the next start issues them, and reading such an account through the admin API does too.
      this.logger.warn(`issuing sandbox webhook secrets: ${String(error)}`);
      return 0;
    });
    if (issued > 0) this.logger.log(`issued a sandbox webhook secret to ${issued} accounts opened with one shared secret`);
  }

  /** The listeners are closed by now: their last request log lines are written while the database pool is open. */
  beforeApplicationShutdown(): Promise<void> {
    return this.requestLog.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.upstreams.close(), this.listeners.stop()]);
    this.redis.disconnect();
  }
}
