import { Redis } from 'ioredis';
import { ListenedEvent, sandboxListenChannel } from '@pixauto/contracts';
import { WebhookEvent } from './notifications';

/**
 * Hands each sandbox event, as its webhook body, to the account's listeners (`pixauto listen`, through the gateway's
 * GET /v2/sandbox/events): one PUBLISH per sandbox event, one round trip per batch, nothing for production. A
 * listener is a developer's terminal, not a delivery: with Redis away its copy is lost; every delivery stays.
 */
export class SandboxListenPublisher {
  /** `redis` null: SANDBOX_LISTEN=off, a deployment that serves no sandbox listener publishes nothing and holds no connection. */
  constructor(private readonly redis: Redis | null) {}

  async publish(events: readonly WebhookEvent[]): Promise<void> {
    if (!this.redis) return;
    const sandbox = events.filter((event) => event.tenant.environment === 'sandbox');
    if (sandbox.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const event of sandbox) {
      const listened: ListenedEvent = { id: event.id, type: event.event_type, body: JSON.stringify(event.payload) };
      pipeline.publish(sandboxListenChannel(event.tenant.accountId), JSON.stringify(listened));
    }
    await pipeline.exec();
  }

  close(): void {
    this.redis?.disconnect();
  }
}
