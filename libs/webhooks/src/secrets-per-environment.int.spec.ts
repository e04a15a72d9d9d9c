import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { EventEnvelope, Environment } from '@pixauto/contracts';
import { SystemClock } from '@pixauto/pix';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { SecretBox } from '@pixauto/secrets';
import { eventually } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { CircuitBreaker } from './circuit-breaker';
import { DeliveryStore } from './delivery-store';
import { WebhookDispatcher } from './dispatcher';
import { insertDeliveries, takeEvents } from './event-intake';
import { targetPolicyFrom } from './address-guard';
import { WebhookSender } from './webhook-sender';
import { WebhookDeliveries1763800000800, WebhookEndpoints1763800001000, WebhookSecretsPerEnvironment1763800000990 } from './webhooks.migration';

// The dispatcher's database as it was when one secret signed both environments, migrated on real PostgreSQL: an
// account made then keeps getting production webhooks signed with its existing secret, and its sandbox webhooks are
// never signed with it, before its sandbox secret arrives or after. A receiver on loopback checks each signature.

const box = new SecretBox([['test', randomBytes(32)]]);
const SHARED = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ROTATED_SHARED = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const legacyAccount = randomUUID();
const rotatedAccount = randomUUID();

let dataSource: DataSource;
let server: Server;
let port: number;
let dispatcher: WebhookDispatcher;
const sender = new WebhookSender(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'all' }), { timeoutMs: 2000 });
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  dataSource = await createTestDataSource('webhook_secrets', [TenantClocksTable1763800000060, WebhookDeliveries1763800000800]);
  // As the intake wrote them before: one row per account, its secret signing both environments.
  await dataSource.query('INSERT INTO webhook_secrets (account_id, secret, version) VALUES ($1, $2, 1)', [legacyAccount, box.seal(SHARED)]);
  await dataSource.query(
    `INSERT INTO webhook_secrets (account_id, secret, previous_secret, previous_valid_until, version) VALUES ($1, $2, $3, now() + interval '1 day', 2)`,
    [rotatedAccount, box.seal(ROTATED_SHARED), box.seal(SHARED)],
  );
  const runner = dataSource.createQueryRunner();
  try {
    await new WebhookSecretsPerEnvironment1763800000990().up(runner);
    await new WebhookEndpoints1763800001000().up(runner);
  } finally {
    await runner.release();
  }
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  port = (server.address() as AddressInfo).port;
  dispatcher = new WebhookDispatcher(new DeliveryStore(dataSource), sender, new CircuitBreaker(), new SystemClock(), box);
});

afterAll(async () => {
  await dispatcher?.drain();
  await sender.close();
  server?.closeAllConnections();
  await new Promise((closed) => server?.close(closed));
  await dropTestDataSource(dataSource);
});

/** One delivery of `accountId` in `environment` to the loopback receiver, sent now; answers what the receiver got. */
async function deliver(accountId: string, environment: Environment): Promise<{ headers: Record<string, string>; body: string } | undefined> {
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const path = `/${id}`;
  const created = await dataSource.transaction((db) =>
    insertDeliveries(
      db,
      [
        {
          id,
          tenant: { accountId, environment },
          event_type: 'payout.created',
          resource_type: 'payout',
          resource_id: id,
          group_id: `payout:${id}`,
          sequence: 1,
          url: `http://127.0.0.1:${port}${path}`,
          payload: { type: 'payout.created', environment, timestamp: new Date(0).toISOString(), data: { id } },
        },
      ],
      dispatcher.leaseUntil(),
    ),
  );
  dispatcher.enqueue(created);
  const attempted = await eventually(
    async (): Promise<{ attempt_count: number; last_error: string | null }> =>
      (await dataSource.query('SELECT attempt_count, last_error FROM webhook_deliveries WHERE id = $1', [id]))[0],
    (row) => row.attempt_count > 0,
    { timeoutMs: 10_000, what: `the first attempt of ${id}` },
  );
  const seen = received.find((r) => r.path === path);
  if (!seen) {
    expect(attempted.last_error).toBe(`no ${environment} webhook secret is known for this account yet`);
    return undefined;
  }
  return { headers: seen.headers as Record<string, string>, body: seen.body };
}

const verifies = (secret: string, request: { headers: Record<string, string>; body: string }): boolean => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

describe('a signing secret per environment, for accounts made when one secret signed both', () => {
  it('keeps the existing secret as production’s: production webhooks verify with it, as before', async () => {
    const production = await deliver(legacyAccount, 'production');
    expect(production && verifies(SHARED, production)).toBe(true);
    expect(JSON.parse(production?.body ?? '{}')).toMatchObject({ environment: 'production' });
    // A rotation made then was production's, its previous secret still signing beside the new one.
    const rotated = await deliver(rotatedAccount, 'production');
    expect(rotated && verifies(ROTATED_SHARED, rotated) && verifies(SHARED, rotated)).toBe(true);
  });

  it('never signs a sandbox webhook with it: none is sent until the sandbox secret arrives, then only that one signs', async () => {
    expect(await deliver(legacyAccount, 'sandbox')).toBeUndefined();
    const sandboxSecret = 'whsec_' + randomBytes(24).toString('base64');
    const issued: EventEnvelope = {
      event_id: randomUUID(),
      type: 'account.webhook_secret_rotated',
      stream_id: `account:${legacyAccount}`,
      version: 2,
      tenant: { account_id: legacyAccount, environment: 'production' },
      occurred_at: new Date(0).toISOString(),
      data: { environment: 'sandbox', webhook_secret: box.seal(sandboxSecret), previous_secret: null, previous_valid_until: null },
    };
    await dataSource.transaction((db) => takeEvents(db, [issued], dispatcher.leaseUntil()));
    // The dispatcher keeps an account's secrets 5 s; a fresh one reads them now.
    dispatcher = new WebhookDispatcher(new DeliveryStore(dataSource), sender, new CircuitBreaker(), new SystemClock(), box);
    const sandbox = await deliver(legacyAccount, 'sandbox');
    expect(sandbox && verifies(sandboxSecret, sandbox)).toBe(true);
    expect(sandbox && verifies(SHARED, sandbox)).toBe(false);
    expect(JSON.parse(sandbox?.body ?? '{}')).toMatchObject({ environment: 'sandbox' });
    // Production's is untouched by the sandbox's arrival.
    const production = await deliver(legacyAccount, 'production');
    expect(production && verifies(SHARED, production)).toBe(true);
    expect(production && verifies(sandboxSecret, production)).toBe(false);
  });
});
