import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { FOLLOWED_TOPICS, Patterns, reply, ServiceReply, ServiceRequest, Topics } from '@pixauto/contracts';
import {
  applyReceiptEvents,
  RECEIPT_EVENT_TYPES,
  receiptFollowerGroup,
  receiptProviderSettings,
  ReceiptProviders,
  ReceiptsReadModel1763800000800,
} from '@pixauto/receipts';
import { EventSourcingModule, kafkaFollower, serviceConfig } from '@pixauto/runtime';
import { SecretBox } from '@pixauto/secrets';
import { RECEIPT_PROVIDER_CLIENTS, Receipts } from './receipts';

export const config = serviceConfig('receipt-service', 4011);

/**
 * Follows the cash-in charges and their refunds (payments topic), the payouts and their returns (payouts topic) and
 * the accounts' providers and credentials (accounts topic) into the read model. Applying is idempotent by version; a
 * new database has a consumer group of its own, which reads the topics from their start.
 */
const receiptFollower = kafkaFollower('ReceiptFollower', [DataSource], async (dataSource: DataSource) => ({
  groupId: await receiptFollowerGroup(dataSource.manager, config.databaseName),
  topics: FOLLOWED_TOPICS.receiptService.map((topic) => topic.name),
  types: RECEIPT_EVENT_TYPES,
  handleBatch: (events) => dataSource.transaction((tx) => applyReceiptEvents(tx, events)),
}));

@Controller()
class ReceiptsController {
  constructor(private readonly receipts: Receipts) {}

  @MessagePattern(Patterns.receipts.refundReceipt)
  async refundReceipt(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.receipts.refundReceipt('pix', request.tenant, request.query));
  }

  @MessagePattern(Patterns.receipts.payoutRefundReceipt)
  async payoutRefundReceipt(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.receipts.refundReceipt('payout', request.tenant, request.query));
  }

  @MessagePattern(Patterns.receipts.payoutReceipt)
  async payoutReceipt(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.receipts.payoutReceipt(request.tenant, request.query));
  }
}

@Module({
  // Publishes nothing: the event-sourcing module gives it its database, migrations and Kafka (the topics it follows made sure of).
  imports: [
    EventSourcingModule.forService({ config, migrations: [ReceiptsReadModel1763800000800], topics: [Topics.payments, Topics.payouts, Topics.accounts] }),
  ],
  controllers: [ReceiptsController],
  providers: [
    receiptFollower,
    Receipts,
    { provide: RECEIPT_PROVIDER_CLIENTS, useFactory: () => new ReceiptProviders(receiptProviderSettings()) },
    { provide: SecretBox, useFactory: () => SecretBox.fromEnvironment() },
  ],
})
export class ReceiptModule {}
