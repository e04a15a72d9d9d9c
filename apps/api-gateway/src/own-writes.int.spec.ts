import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Patterns, Tenant, WrittenPosition } from '@pixauto/contracts';
import { RefusalException } from '@pixauto/errors';
import { OwnWrites } from './own-writes';

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
  await redis.del(...tenants.map((t) => `own-writes:${t.accountId}:${t.environment}`));
  redis.disconnect();
});

const position = (stream: string, version: number): WrittenPosition => ({ topic: 'pixauto.payouts.events.v1', type: 'payout.created', stream, version });

describe('OwnWrites (Redis)', () => {
  it("gives a tenant's follower-fed reads the events its writes appended, and nothing to other reads or other tenants", async () => {
    const tenant = newTenant();
    await ownWrites.remember(tenant, { status: 201, written: [position('payout:1', 1)] });
    await ownWrites.remember(tenant, { status: 200, written: [position('payout:1', 2), position('payout:2', 1)] });
    await ownWrites.remember(tenant, { status: 200 }); // a write that appended nothing
    const pending = await ownWrites.pendingFor(Patterns.payoutQuery.byId, tenant);
    expect(pending).toEqual(expect.arrayContaining([position('payout:1', 1), position('payout:1', 2), position('payout:2', 1)]));
    expect(pending).toHaveLength(3);
    expect(await ownWrites.pendingFor(Patterns.limits.get, tenant)).toBeUndefined();
    expect(await ownWrites.pendingFor(Patterns.payoutQuery.byId, newTenant())).toBeUndefined();
    expect(await ownWrites.pendingFor(Patterns.payoutQuery.byId, { ...tenant, environment: 'production' })).toBeUndefined();
    expect(await redis.pttl(`own-writes:${tenant.accountId}:sandbox`)).toBeGreaterThan(55_000);
  });

  it('keeps the newest 1,000 writes of a tenant', async () => {
    const tenant = newTenant();
    for (let batch = 0; batch < 11; batch++)
      await ownWrites.remember(tenant, { status: 201, written: Array.from({ length: 100 }, (_, n) => position(`payout:${batch}:${n}`, 1)) });
    expect(await redis.zcard(`own-writes:${tenant.accountId}:sandbox`)).toBe(1000);
  });

  it('answers a follower-fed read 503 when Redis cannot be reached, and lets a write through', async () => {
    const gone = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    const offline = new OwnWrites(gone);
    const refused = await offline.pendingFor(Patterns.receipts.refundReceipt, newTenant()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusalException);
    expect((refused as RefusalException).refusal).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 1 });
    await expect(offline.remember(newTenant(), { status: 201, written: [position('payout:3', 1)] })).resolves.toBeUndefined();
    gone.disconnect();
  });
});
