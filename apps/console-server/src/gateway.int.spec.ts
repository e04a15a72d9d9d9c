import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { SecretBox } from '@pixauto/secrets';
import { consoleConfig } from './console.config';
import { Gateway } from './gateway';

// The console's own keys against real Redis and a stand-in admin API on loopback: every key the console issues for
// itself is remembered as its own, so the keys page lists it as the console's, and the others as the merchant's.

const run = randomBytes(4).toString('hex');
const accountId = `acc-${run}`;
let redis: Redis;
let admin: Server;
let issued = 0;
const revoked: string[] = [];
/** Who each change was asked for, as the admin API's audit log takes it (X-Audit-Actor). */
const actors: unknown[] = [];

beforeAll(async () => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  admin = createServer((request, response) => {
    const answer = (status: number, body?: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (request.method !== 'GET') actors.push(request.headers['x-audit-actor']);
    if (request.method === 'POST' && request.url === `/admin/accounts/${accountId}/api-keys`) {
      issued++;
      return answer(201, {
        key_id: `key_${run}_${issued}`,
        api_key: `pix_test_${run}${issued}`,
        environment: 'sandbox',
        read_only: false,
        transactions: true,
        name: null,
      });
    }
    if (request.method === 'GET' && request.url === `/admin/accounts/${accountId}/api-keys`) {
      const listed = [1, 2, 3].map((n) => ({
        key_id: `key_${run}_${n}`,
        environment: 'sandbox',
        read_only: false,
        transactions: true,
        name: null,
        created_at: '2026-11-26T10:00:00.000Z',
        revoked_at: null,
        last_used_at: null,
      }));
      return answer(200, { api_keys: listed, last_used_since: '2026-11-19T10:00:00.000Z' });
    }
    if (request.method === 'DELETE' && request.url?.startsWith('/admin/api-keys/')) {
      revoked.push(request.url.slice('/admin/api-keys/'.length));
      return answer(204);
    }
    return answer(404, { message: 'not here' });
  });
  await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await redis.del(`console:api-key:${accountId}:sandbox`, `console:api-key-ids:${accountId}`);
  redis.disconnect();
  await new Promise((resolve) => admin.close(resolve));
});

const secrets = new SecretBox([['k1', randomBytes(32)]]);
const gateway = () => {
  const config = { ...consoleConfig({}), adminApiUrl: `http://127.0.0.1:${(admin.address() as AddressInfo).port}`, adminToken: 'test' };
  return new Gateway(config, redis, secrets);
};

describe("the console's own keys", () => {
  it('issues one for itself once, remembers it as its own, and lists only such keys as its own', async () => {
    const key = await gateway().apiKey(accountId, 'sandbox');
    expect(key).toBe(`pix_test_${run}1`);
    expect(await gateway().apiKey(accountId, 'sandbox')).toBe(key);
    // The operator revoked it: forgotten, a new one issued, both remembered as the console's.
    await gateway().forgetKey(accountId, 'sandbox');
    expect(await gateway().apiKey(accountId, 'sandbox')).toBe(`pix_test_${run}2`);

    const { keys, own } = await gateway().listKeys(accountId);
    expect(keys.map((listed) => listed.key_id)).toEqual([1, 2, 3].map((n) => `key_${run}_${n}`));
    expect([...own].sort()).toEqual([`key_${run}_1`, `key_${run}_2`]);
    expect(actors).toEqual(['console', 'console']); // the audit log names the console, not a user, for its own keys
  });

  it("issues one key for a first page's requests asked at once on a replica, none to revoke", async () => {
    await gateway().forgetKey(accountId, 'sandbox');
    const before = { issued, revoked: revoked.length };
    const one = gateway();
    const keys = await Promise.all([1, 2, 3, 4, 5].map(() => one.apiKey(accountId, 'sandbox')));
    expect(new Set(keys).size).toBe(1);
    expect({ issued: issued - before.issued, revoked: revoked.length - before.revoked }).toEqual({ issued: 1, revoked: 0 });
  });

  it('keeps the key sealed in Redis, never in clear', async () => {
    expect(await redis.get(`console:api-key:${accountId}:sandbox`)).not.toContain('pix_test_');
  });

  it('revokes a key through the admin API, naming the user who asked', async () => {
    actors.length = 0;
    await gateway().revoke(`key_${run}_3`, { email: 'ana+ops@loja.example' });
    expect(revoked).toEqual([`key_${run}_3`]);
    expect(actors).toEqual(['ana%2Bops%40loja.example']);
  });
});
