import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Redis } from 'ioredis';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { EventEnvelope, FOLLOWED_TOPICS } from '@pixauto/contracts';
import { FollowerPositions } from '@pixauto/event-store';
import { EventSubscriber } from '@pixauto/messaging';
import { Clock } from '@pixauto/pix';
import { CLOCK, EventSourcingModule, KAFKA, PeriodicTask, serviceConfig } from '@pixauto/runtime';
import { SecretBox } from '@pixauto/secrets';
import {
  CircuitBreaker,
  DEFAULT_DISPATCHER_OPTIONS,
  DeliveryStore,
  describePolicy,
  FOLLOWED_EVENT_TYPES,
  SandboxListenPublisher,
  takeEvents,
  targetPolicyFrom,
  WebhookDeliveries1763800000800,
  WebhookSecretsPerEnvironment1763800000990,
  WebhookRecordsInEvents1763800000991,
  WebhookEndpoints1763800001000,
  WebhookEndpointStore,
  WebhookDispatcher,
  WebhookSender,
} from '@pixauto/webhooks';
import { DeliveriesController } from './deliveries.controller';
import { EndpointsController } from './endpoints.controller';

export const config = serviceConfig('webhook-dispatcher', 4009);

/**
 * Where webhooks may go (docs/operations.md "Environment variables"): WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_RESERVED_PORTS,
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS. The dispatcher's own listeners and the servers it uses are always reserved.
 */
const targetPolicy = targetPolicyFrom(process.env, [
  config.port,
  config.opsPort,
  portOf(config.databaseServerUrl, 5432),
  portOf(config.redisUrl, 6379),
  ...config.kafkaBrokers.map((broker) => portOf(`kafka://${broker}`, 9092)),
]);

function portOf(url: string, otherwise: number): number {
  const port = new URL(url).port;
  return port === '' ? otherwise : Number(port);
}

/**
 * Follows the topics that carry webhooks into deliveries (one transaction per fetched batch, offsets committed
 * after it), hands the new ones to the dispatcher at once, and claims what falls due from the table every 250 ms:
 * retries, manual retries, and what an instance that died was holding. Its own subscriber rather than a
 * kafkaFollower(): Nest stops a module's providers together, and the intake must stop before the dispatcher drains.
 */
@Injectable()
class DeliveryPipeline implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryPipeline');
  private subscriber?: EventSubscriber;
  private readonly poller: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(KAFKA) private readonly kafka: Kafka,
    private readonly positions: FollowerPositions,
    private readonly listeners: SandboxListenPublisher,
  ) {
    this.poller = new PeriodicTask('DueDeliveries', 250, () => this.dispatcher.claimDue());
  }

  private async take(events: EventEnvelope[]): Promise<void> {
    const taken = await this.dataSource.transaction((db) => takeEvents(db, events, this.dispatcher.leaseUntil()));
    this.dispatcher.enqueue(taken.deliveries);
    // After the commit: what a listener sees has happened. Not awaited: a slow Redis never holds the deliveries back.
    void this.listeners.publish(taken.webhookEvents).catch((error: unknown) => this.logger.warn(`sandbox listeners missed a batch: ${String(error)}`));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventSubscriber(this.kafka, {
      groupId: `${config.databaseName}.deliveries`,
      topics: FOLLOWED_TOPICS.webhookDispatcher.map((topic) => topic.name),
      types: FOLLOWED_EVENT_TYPES,
      // A new dispatcher notifies of what happens from its first start on, not of the topics' whole history.
      fromBeginning: false,
      handleBatch: (events) => this.take(events),
      // The delivery log answers a merchant's reads: they wait for its own writes to be taken (OwnWritesInterceptor).
      positions: this.positions,
    });
    await this.subscriber.start();
    this.poller.start();
    this.logger.log(`delivering webhooks (${describePolicy(targetPolicy)})`);
  }

  /** First at shutdown (GracefulShutdown): deliveries under way finish and are recorded before the pool closes. */
  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.stop();
    await this.poller.stop();
    await this.dispatcher.drain();
  }
}

@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      migrations: [
        WebhookDeliveries1763800000800,
        WebhookSecretsPerEnvironment1763800000990,
        WebhookRecordsInEvents1763800000991,
        WebhookEndpoints1763800001000,
      ],
      topics: FOLLOWED_TOPICS.webhookDispatcher,
    }),
  ],
  controllers: [DeliveriesController, EndpointsController],
  providers: [
    { provide: DeliveryStore, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => new DeliveryStore(dataSource) },
    { provide: WebhookSender, useFactory: () => new WebhookSender(targetPolicy) },
    { provide: SecretBox, useFactory: () => SecretBox.fromEnvironment() },
    {
      provide: WebhookEndpointStore,
      inject: [getDataSourceToken(), SecretBox],
      useFactory: (dataSource: DataSource, secretBox: SecretBox) => new WebhookEndpointStore(dataSource, secretBox),
    },
    {
      provide: WebhookDispatcher,
      inject: [DeliveryStore, WebhookSender, CLOCK, SecretBox],
      useFactory: (store: DeliveryStore, sender: WebhookSender, clock: Clock, secretBox: SecretBox) =>
        new WebhookDispatcher(store, sender, new CircuitBreaker(), clock, secretBox, DEFAULT_DISPATCHER_OPTIONS),
    },
    {
      provide: SandboxListenPublisher,
      useFactory: () => new SandboxListenPublisher(new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1000, lazyConnect: false })),
    },
    DeliveryPipeline,
  ],
})
export class WebhookDispatcherModule implements OnApplicationShutdown {
  constructor(private readonly listeners: SandboxListenPublisher) {}

  onApplicationShutdown(): void {
    this.listeners.close();
  }
}
