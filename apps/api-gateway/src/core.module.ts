import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { AccountProfiles, AccountsAdmin, AccountsReadModel1763800000200, ApiKeyDirectory } from '@pixauto/accounts';
import { Topics } from '@pixauto/contracts';
import { EventStore } from '@pixauto/event-store';
import { Clock } from '@pixauto/pix';
import { CLOCK, EventSourcingModule, TenantClocks } from '@pixauto/runtime';
import { gatewayConfig } from './gateway.config';
import { SandboxClocks } from './sandbox-clocks';
import { Upstreams } from './upstreams';

export const config = gatewayConfig();
export const REDIS = Symbol('REDIS');

/** What the three listeners share: the gateway's own database (accounts, keys), Redis and the pools to the services. */
@Module({
  imports: [EventSourcingModule.forService({ config, migrations: [AccountsReadModel1763800000200], topics: [Topics.accounts, Topics.sandboxClock] })],
  providers: [
    { provide: REDIS, useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true }) },
    { provide: ApiKeyDirectory, inject: [REDIS, DataSource], useFactory: (redis: Redis, db: DataSource) => new ApiKeyDirectory(redis, db) },
    { provide: AccountProfiles, inject: [REDIS, DataSource], useFactory: (redis: Redis, db: DataSource) => new AccountProfiles(redis, db) },
    {
      provide: AccountsAdmin,
      inject: [EventStore, DataSource, ApiKeyDirectory, AccountProfiles, CLOCK],
      useFactory: (store: EventStore, db: DataSource, directory: ApiKeyDirectory, profiles: AccountProfiles, clock: Clock) =>
        new AccountsAdmin(store, db, directory, profiles, clock),
    },
    { provide: Upstreams, inject: [TenantClocks], useFactory: (clocks: TenantClocks) => new Upstreams(config.upstreams, clocks.offsetOf) },
    {
      provide: SandboxClocks,
      inject: [EventStore, CLOCK, TenantClocks],
      useFactory: (store: EventStore, clock: Clock, clocks: TenantClocks) => new SandboxClocks(store, clock, clocks),
    },
  ],
  exports: [ApiKeyDirectory, AccountProfiles, AccountsAdmin, Upstreams, SandboxClocks],
})
export class GatewayCoreModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis, private readonly upstreams: Upstreams) {}

  async onApplicationShutdown(): Promise<void> {
    await this.upstreams.close();
    this.redis.disconnect();
  }
}
