import { Kafka, logLevel } from 'kafkajs';
import { stopKafkajsIdleLoop } from '@pixauto/messaging';
import { eventually } from '@pixauto/testing';

// The test's own consumer spends no CPU at rest that the system under test needs (libs/messaging/src/kafkajs-idle-loop.ts).
stopKafkajsIdleLoop();

export interface SeenEvent {
  key: string;
  envelope: {
    event_id: string;
    type: string;
    stream_id: string;
    version: number;
    tenant: { account_id: string; environment: string };
    data: Record<string, unknown>;
  };
}

/**
 * Watches a topic from its current end: everything published after `start()` resolves is collected,
 * so a test can wait for the events its own requests caused.
 */
export class TopicWatcher {
  readonly seen: SeenEvent[] = [];
  private readonly kafka = new Kafka({
    clientId: 'e2e-watcher',
    brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    logLevel: logLevel.NOTHING,
  });
  private readonly consumer = this.kafka.consumer({ groupId: `e2e-${process.pid}-${Math.random().toString(36).slice(2)}` });

  constructor(private readonly topic: string) {}

  async start(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(this.topic);
    await admin.disconnect();
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: false });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        this.seen.push({ key: String(message.key), envelope: JSON.parse(String(message.value)) });
      },
    });
    for (const { partition, offset } of ends) this.consumer.seek({ topic: this.topic, partition, offset });
  }

  /** Resolves once `predicate` holds for what has been seen; fails after the timeout, showing what was seen. */
  async waitFor(predicate: (seen: SeenEvent[]) => boolean, timeoutMs = 30_000): Promise<void> {
    await eventually(() => this.seen, predicate, { timeoutMs, intervalMs: 100, what: `the events awaited on ${this.topic}` });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
