import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { sandboxListenChannel } from '@pixauto/contracts';
import { SandboxListenPublisher } from './sandbox-listen-publisher';
import { WebhookEvent } from './notifications';

// On the real Redis: what a sandbox account's listeners receive for a batch, and that production's events never go there.

const event = (accountId: string, environment: 'production' | 'sandbox', n: number): WebhookEvent => ({
  id: `msg_${n}`,
  tenant: { accountId, environment },
  event_type: 'pix_charge.paid',
  resource_type: 'pix_charge',
  resource_id: String(n),
  group_id: `pix_charge:${n}`,
  sequence: 2,
  url: null,
  payload: { type: 'pix_charge.paid', environment, timestamp: '2026-11-28T12:00:00.000Z', data: { id: n } as never },
});

it("publishes each sandbox event's webhook body on its account's channel, in order, and nothing of production", async () => {
  const accountId = randomUUID();
  const subscriber = new Redis();
  const publisher = new SandboxListenPublisher(new Redis());
  try {
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe(sandboxListenChannel(accountId));
    await publisher.publish([event(accountId, 'production', 1), event(accountId, 'sandbox', 2), event(accountId, 'sandbox', 3)]);
    for (let waited = 0; heard.length < 2 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.map((message) => JSON.parse(message))).toEqual([
      { id: 'msg_2', type: 'pix_charge.paid', body: JSON.stringify(event(accountId, 'sandbox', 2).payload) },
      { id: 'msg_3', type: 'pix_charge.paid', body: JSON.stringify(event(accountId, 'sandbox', 3).payload) },
    ]);
  } finally {
    subscriber.disconnect();
    publisher.close();
  }
});
