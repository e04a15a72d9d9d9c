import { Module } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { FOLLOWED_TOPICS, Topics } from '@pixauto/contracts';
import { applyPayoutEvents, PAYOUT_EVENT_TYPES, PAYOUT_QUERY_MIGRATIONS, payoutFollowerGroup } from '@pixauto/payout-query';
import { databaseUrl, EventSourcingModule, kafkaFollower, PAYOUT_EXPORT_POOL_SHARE, serviceConfig } from '@pixauto/runtime';
import { PayoutCsvExport, PayoutExportLimits } from './payout-csv-export';
import { PayoutLookupsController } from './payout-lookups.controller';

export const config = serviceConfig('payout-query-service', 4008);
/** The internal HTTP listener the CSV export streams from (the gateway pipes it). */
export const csvPort = Number(process.env.PAYOUT_QUERY_HTTP_PORT ?? 4108);

/** The CSV exports' own pool and bounds (docs/operations.md "Environment variables"). */
export function exportLimitsOf(env: NodeJS.ProcessEnv): PayoutExportLimits {
  return {
    poolSize: Number(env.PAYOUT_EXPORT_POOL_SIZE ?? Math.ceil(PAYOUT_EXPORT_POOL_SHARE / Number(env.DATABASE_POOL_REPLICAS ?? 1))),
    perAccount: Number(env.PAYOUT_EXPORTS_PER_ACCOUNT ?? 1),
    stallMs: Number(env.PAYOUT_EXPORT_STALL_MS ?? 30_000),
  };
}

/** Exports on a pool of their own: stalled readers can hold its connections, never the lookups'. */
const payoutCsvExport = {
  provide: PayoutCsvExport,
  useFactory: () => {
    const limits = exportLimitsOf(process.env);
    const pool = new Pool({
      connectionString: databaseUrl(config),
      max: limits.poolSize,
      connectionTimeoutMillis: config.databasePoolWaitMs,
      application_name: 'payout-query-service:csv-export',
    });
    return new PayoutCsvExport(pool, limits);
  },
};

/**
 * Follows the payout events (the whole record in each) into the read model. Applying an event is idempotent by
 * version, so redeliveries and a replay from the start of the topic are harmless; a new database has a group of its
 * own, which starts from the beginning of the topic: dropping the database rebuilds the read model.
 */
const payoutFollower = kafkaFollower('PayoutFollower', [DataSource], async (dataSource: DataSource) => ({
  groupId: await payoutFollowerGroup(dataSource.manager, config.databaseName),
  topics: FOLLOWED_TOPICS.payoutQueryService.map((topic) => topic.name),
  types: PAYOUT_EVENT_TYPES,
  handleBatch: (events) => applyPayoutEvents(dataSource.manager, events),
}));

@Module({
  // Publishes nothing: the event-sourcing module gives it its database, migrations, Kafka and the sandbox clocks.
  imports: [EventSourcingModule.forService({ config, migrations: PAYOUT_QUERY_MIGRATIONS, topics: [Topics.payouts] })],
  controllers: [PayoutLookupsController],
  providers: [payoutCsvExport, payoutFollower],
})
export class PayoutQueryModule {}
