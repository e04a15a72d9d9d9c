import { BeforeApplicationShutdown, DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { Kafka, Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { TopicSpec, Topics } from '@pixauto/contracts';
import { EVENT_STORE_MIGRATIONS, EventStore, FollowerPositions, OutboxPublisher, runMigrations } from '@pixauto/event-store';
import { createIdempotentProducer, createKafka, ensureTopics, KafkaOutboxSink } from '@pixauto/messaging';
import { Clock, SystemClock } from '@pixauto/pix';
import { ServiceConfig } from './config';
import { Migrations } from '@pixauto/event-store';
import { dataSourceOptions, ensureDatabase } from './database';
import { TenantClocks, TenantClocksTable1763800000060 } from './sandbox-clock';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const CLOCK = Symbol('CLOCK');
export const KAFKA = Symbol('KAFKA');
export const KAFKA_PRODUCER = Symbol('KAFKA_PRODUCER');

export interface EventSourcingOptions {
  config: ServiceConfig;
  /** The service's own migrations; the event store's schema comes first. */
  migrations: Migrations;
  /** The topics this service publishes; created at start-up. */
  topics: readonly TopicSpec[];
}

/** Start-up and shutdown order: schema before traffic; outbox drained of in-flight work before Kafka goes away. */
@Injectable()
class EventSourcingLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly publisher: OutboxPublisher,
    private readonly sink: KafkaOutboxSink,
    private readonly tenantClocks: TenantClocks,
    @Inject(KAFKA) private readonly kafka: Kafka,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await runMigrations(this.dataSource);
    await this.tenantClocks.load();
  }

  /** Traffic only once the sandbox clocks are followed: a date rule must never read a stale clock for long. */
  async onApplicationBootstrap(): Promise<void> {
    this.publisher.start();
    await this.tenantClocks.follow(this.kafka, this.config.databaseName);
  }

  /**
   * After the listeners drained and the consumers and tasks stopped (onModuleDestroy), before TypeORM closes the
   * database (on application shutdown): what they committed leaves for Kafka now rather than at the next start.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.tenantClocks.stop();
    await this.publisher.stop(OUTBOX_FLUSH_MS);
    await this.sink.disconnect();
  }
}

/** Within DRAIN_DEADLINE_MS, with room for the drain before and the pools after; Kafka away, the rest waits. */
const OUTBOX_FLUSH_MS = 3000;

const lockKeyOf = (service: string): number => [...service].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, 7);

@Module({})
export class EventSourcingModule {
  static forService(options: EventSourcingOptions): DynamicModule {
    const { config } = options;
    const logger = new Logger('Outbox');
    return {
      module: EventSourcingModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await ensureDatabase(config);
            return dataSourceOptions(config, [...EVENT_STORE_MIGRATIONS, TenantClocksTable1763800000060, ...(options.migrations as [])]);
          },
        }),
      ],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: TenantClocks, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => new TenantClocks(dataSource) },
        // Real time, plus each sandbox tenant's test clock (docs/decisions/sandbox-clock.md).
        { provide: CLOCK, inject: [TenantClocks], useFactory: (clocks: TenantClocks): Clock => new SystemClock(clocks.offsetOf) },
        { provide: KAFKA, useFactory: () => createKafka(config.service, config.kafkaBrokers) },
        {
          provide: KAFKA_PRODUCER,
          inject: [KAFKA],
          useFactory: async (kafka: Kafka) => {
            await ensureTopics(kafka, [...options.topics, Topics.sandboxClock]);
            const producer = createIdempotentProducer(kafka);
            await producer.connect();
            return producer;
          },
        },
        {
          provide: KafkaOutboxSink,
          inject: [KAFKA, KAFKA_PRODUCER],
          useFactory: (kafka: Kafka, producer: Producer) => new KafkaOutboxSink(producer, undefined, () => createIdempotentProducer(kafka)),
        },
        {
          provide: OutboxPublisher,
          inject: [getDataSourceToken(), KafkaOutboxSink],
          useFactory: (dataSource: DataSource, sink: KafkaOutboxSink) =>
            new OutboxPublisher(dataSource, sink, {
              lockKey: lockKeyOf(config.service),
              onError: (error) => logger.warn(`publishing failed, will retry: ${String(error)}`),
            }),
        },
        {
          provide: EventStore,
          inject: [getDataSourceToken(), OutboxPublisher],
          useFactory: (dataSource: DataSource, publisher: OutboxPublisher) => new EventStore(dataSource, () => publisher.wake()),
        },
        { provide: FollowerPositions, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => new FollowerPositions(dataSource) },
        EventSourcingLifecycle,
      ],
      exports: [SERVICE_CONFIG, CLOCK, KAFKA, KAFKA_PRODUCER, EventStore, OutboxPublisher, TenantClocks, FollowerPositions],
    };
  }
}
