import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Patterns, Tenant, Topics, WrittenPosition } from '@pixauto/contracts';
import { RefusalException } from '@pixauto/errors';
import { OwnWrites, ownWritesKey } from './own-writes';

// A merchant's writes of the last minute against real Redis (docs/decisions/read-your-writes.md): kept per tenant,
// given to its follower-fed reads only.

let redis: Redis;
let ownWrites: OwnWrites;
const tenants: Tenant[] = [];
const newTenant = (): Tenant => {
  const tenant: Tenant = { accountId: randomUUID(), environment: 'sandbox' };
  tenants.push(tenant);
  return tenant;
};

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  ownWrites = new OwnWrites(redis);
});
afterAll(async () => {
  await redis.del(...tenants.flatMap((t) => Object.values(Topics).map((topic) => ownWritesKey(t, topic.name))));
  redis.disconnect();
});

const position = (stream: string, version: number): WrittenPosition => ({ topic: 'pixauto.payouts.events.v1', type: 'payout.created', stream, version });

describe('OwnWrites (Redis)', () => {
  it("gives a tenant's follower-fed reads the events its writes appended, and nothing to other reads or other tenants", async () => {
    const tenant = newTenant();
    await ownWrites.remember(tenant, [position('payout:1', 1)]);
    await ownWrites.remember(tenant, [position('payout:1', 2), position('payout:2', 1)]);
    await ownWrites.remember(tenant, []); // a write that appended nothing
    const pending = await ownWrites.pendingFor(Patterns.payoutQuery.byId, tenant);
    expect(pending).toEqual(expect.arrayContaining([position('payout:1', 1), position('payout:1', 2), position('payout:2', 1)]));
    expect(pending).toHaveLength(3);
    expect(await ownWrites.pendingFor(Patterns.limits.get, tenant)).toBeUndefined();
    expect(await ownWrites.pendingFor(Patterns.payoutQuery.byId, newTenant())).toBeUndefined();
    expect(await ownWrites.pendingFor(Patterns.payoutQuery.byId, { ...tenant, environment: 'production' })).toBeUndefined();
    expect(await redis.pttl(ownWritesKey(tenant, Topics.payouts.name))).toBeGreaterThan(55_000);
  });

  it('gives a read only the writes on the topics its service follows', async () => {
    const tenant = newTenant();
    const created = { topic: Topics.recurrences.name, type: 'recurrence.created', stream: 'recurrence:1', version: 1 };
    await ownWrites.remember(tenant, [created, position('payout:4', 1)]);
    // recurrence-service answers a recurrence read and follows solicitations only: nothing to wait for.
    expect(await ownWrites.pendingFor(Patterns.recurrences.get, tenant)).toBeUndefined();
    expect(await ownWrites.pendingFor(Patterns.solicitations.get, tenant)).toEqual([created]);
    expect(await ownWrites.pendingFor(Patterns.webhooks.listDeliveries, tenant)).toEqual(expect.arrayContaining([created, position('payout:4', 1)]));
  });

  it('keeps the newest 1,000 writes of a tenant', async () => {
    const tenant = newTenant();
    for (let batch = 0; batch < 11; batch++)
      await ownWrites.remember(
        tenant,
        Array.from({ length: 100 }, (_, n) => position(`payout:${batch}:${n}`, 1)),
      );
    expect(await redis.zcard(ownWritesKey(tenant, Topics.payouts.name))).toBe(1000);
  });

  it('answers a follower-fed read 503 when Redis cannot be reached, and lets a write through', async () => {
    const gone = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    const offline = new OwnWrites(gone);
    const refused = await offline.pendingFor(Patterns.receipts.refundReceipt, newTenant()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusalException);
    expect((refused as RefusalException).refusal).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 1 });
    await expect(offline.remember(newTenant(), [position('payout:3', 1)])).resolves.toBeUndefined();
    gone.disconnect();
  });
});
