import { InjectionToken, OnApplicationBootstrap, OnModuleDestroy, Provider } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { FollowerPositions } from '@pixauto/event-store';
import { EventSubscriber, Subscription } from '@pixauto/messaging';
import { KAFKA } from './event-sourcing.module';

/**
 * A service following Kafka topics. Registered as a Nest provider (kafkaFollower()), it subscribes when the
 * application starts, and the service is ready only once its consumer group is joined; it stops first when the
 * application closes (onModuleDestroy), so what its handler committed is flushed from the outbox after it. It records
 * how far it applied each stream (FollowerPositions), so the service's reads can wait for a merchant's own writes.
 */
export class KafkaFollower implements OnApplicationBootstrap, OnModuleDestroy {
  private subscriber?: EventSubscriber;

  constructor(
    private readonly kafka: Kafka,
    private readonly positions: FollowerPositions,
    private readonly subscription: () => Subscription | Promise<Subscription>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = new EventSubscriber(this.kafka, { positions: this.positions, ...(await this.subscription()) });
    await this.subscriber.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.stop();
  }
}

/**
 * The provider of a follower: its name, what its subscription needs, and the subscription (resolved at start, so a
 * group id may be read from the database), e.g.
 * `kafkaFollower('PayoutFollower', [DataSource], (dataSource: DataSource) => ({ groupId, topics, handle }))`.
 */
export function kafkaFollower<Deps extends unknown[]>(
  name: string,
  inject: InjectionToken[],
  subscription: (...deps: Deps) => Subscription | Promise<Subscription>,
): Provider {
  return {
    provide: name,
    inject: [KAFKA, FollowerPositions, ...inject],
    useFactory: (kafka: Kafka, positions: FollowerPositions, ...deps: Deps) => new KafkaFollower(kafka, positions, () => subscription(...deps)),
  };
}
