import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FOLLOWED_TOPICS, Topics } from '@pixauto/contracts';
import { applyPayoutEvents, PAYOUT_EVENT_TYPES, PAYOUT_QUERY_MIGRATIONS, payoutFollowerGroup } from '@pixauto/payout-query';
import { EventSourcingModule, kafkaFollower, serviceConfig } from '@pixauto/runtime';
import { PayoutCsvExport } from './payout-csv-export';
import { PayoutLookupsController } from './payout-lookups.controller';

export const config = serviceConfig('payout-query-service', 4008);
/** The internal HTTP listener the CSV export streams from (the gateway pipes it). */
export const csvPort = Number(process.env.PAYOUT_QUERY_HTTP_PORT ?? 4108);

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
  providers: [PayoutCsvExport, payoutFollower],
})
export class PayoutQueryModule {}
