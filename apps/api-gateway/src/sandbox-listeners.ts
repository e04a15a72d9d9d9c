import { Redis } from 'ioredis';
import { MAX_SANDBOX_LISTENERS, sandboxListenChannel } from '@pixauto/contracts';

/** A listener's sink: one published message, the channel's bytes as they are. */
export type ListenerSink = (message: string) => void;

/**
 * The sandbox accounts' event streams on this replica (`pixauto listen`, docs/api/sdk.md): one Redis connection in
 * subscriber mode, subscribed to an account's channel while at least one of its listeners is connected here.
 */
export class SandboxListeners {
  private readonly subscriber: Redis;
  private readonly sinks = new Map<string, Set<ListenerSink>>();

  constructor(redis: Redis) {
    this.subscriber = redis.duplicate({ enableAutoPipelining: false, commandTimeout: undefined });
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const sink of this.sinks.get(channel) ?? []) sink(message);
    });
  }

  /** Adds a listener of the account; its close function, or undefined when the account already holds the most it may. */
  async open(accountId: string, sink: ListenerSink): Promise<(() => void) | undefined> {
    const channel = sandboxListenChannel(accountId);
    let sinks = this.sinks.get(channel);
    if (sinks && sinks.size >= MAX_SANDBOX_LISTENERS) return undefined;
    if (!sinks) {
      sinks = new Set();
      this.sinks.set(channel, sinks);
      // Commands on one connection run in order: a last listener's UNSUBSCRIBE before this SUBSCRIBE leaves it subscribed.
      await this.subscriber.subscribe(channel);
    }
    const own = sinks;
    own.add(sink);
    return () => {
      own.delete(sink);
      if (own.size > 0 || this.sinks.get(channel) !== own) return;
      this.sinks.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async stop(): Promise<void> {
    this.sinks.clear();
    await this.subscriber.quit().catch(() => undefined);
  }
}
