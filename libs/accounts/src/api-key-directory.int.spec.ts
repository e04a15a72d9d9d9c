import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Topics } from '@pixauto/contracts';
import { EventStore } from '@pixauto/event-store';
import { SecretBox } from '@pixauto/secrets';
import { FixedClock } from '@pixauto/pix';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { AccountProfiles } from './account-profiles';
import { apiKeyLookups } from '@pixauto/metrics';
import { AccountsAdmin } from './accounts-admin';
import { hashApiKey, newApiKey } from './api-key';
import { ApiKeyDirectory, ApiKeyGrant, UNKNOWN_KEY_TTL_MS } from './api-key-directory';
import { ACCOUNT_MIGRATIONS } from './read-model/accounts.migration';
import { account, ACCOUNT_STREAM, accountStreamId } from './account';
import { projectAccount } from './read-model/accounts.projection';

// ApiKeyDirectory against real Redis and PostgreSQL: keys issued and revoked through AccountsAdmin.

const prefix = `pixauto:test:${randomBytes(4).toString('hex')}:apikey:`;

let dataSource: DataSource;
let redis: Redis;
let directory: ApiKeyDirectory;
let admin: AccountsAdmin;
let profiles: AccountProfiles;
let accountId: string;
const secrets = new SecretBox([['test', randomBytes(32)]]);

beforeAll(async () => {
  dataSource = await createTestDataSource('accounts', ACCOUNT_MIGRATIONS);
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  directory = new ApiKeyDirectory(redis, dataSource, prefix);
  profiles = new AccountProfiles(redis, dataSource, `${prefix}account:`);
  admin = new AccountsAdmin(new EventStore(dataSource), dataSource, directory, profiles, new FixedClock('2025-11-20T12:00:00.000Z'), secrets);
  accountId = (await admin.open({ name: 'Loja Teste' })).account_id;
});

afterAll(async () => {
  if (redis) {
    await deleteOurRedisKeys();
    redis.disconnect();
  }
  await dropTestDataSource(dataSource);
});

async function deleteOurRedisKeys(): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

const redisKeyOf = (apiKey: string) => prefix + hashApiKey(apiKey);
/** The directory's count of lookups that went to PostgreSQL (the counter the gateway's /metrics shows). */
const databaseLookups = async () => (await apiKeyLookups.get()).values.find((value) => value.labels.source === 'database')?.value ?? 0;
const issue = () => admin.issueKey(accountId, { environment: 'sandbox', read_only: true });
const grantOf = (issued: Awaited<ReturnType<typeof issue>>): ApiKeyGrant => ({
  keyId: issued.key_id,
  accountId,
  environment: 'sandbox',
  readOnly: true,
  transactions: true,
});

const cachedOf = (issued: Awaited<ReturnType<typeof issue>>) => ({ ...grantOf(issued), keyHash: hashApiKey(issued.api_key) });

describe('ApiKeyDirectory (Redis + PostgreSQL)', () => {
  it('resolves an issued key from the database first, then from Redis', async () => {
    const issued = await issue();
    // Issuing wrote the grant; without it (Redis lost it), the database answers and fills Redis again.
    expect(JSON.parse((await redis.get(redisKeyOf(issued.api_key))) ?? 'null')).toEqual(cachedOf(issued));
    await redis.del(redisKeyOf(issued.api_key));

    expect(await directory.resolve(issued.api_key)).toEqual(grantOf(issued));
    expect(JSON.parse((await redis.get(redisKeyOf(issued.api_key))) ?? 'null')).toEqual(cachedOf(issued));

    // The database changes behind the cache: the next lookup still answers what Redis holds.
    await dataSource.query('UPDATE api_keys SET read_only = false WHERE key_id = $1', [issued.key_id]);
    expect(await directory.resolve(issued.api_key)).toEqual(grantOf(issued));
  });

  it("grants only when the stored hash equals the presented key's: an entry under the key that holds another hash is refused", async () => {
    const issued = await issue();
    const other = await issue();
    await redis.set(redisKeyOf(issued.api_key), JSON.stringify({ ...grantOf(issued), keyHash: hashApiKey(other.api_key) }));
    expect(await directory.resolve(issued.api_key)).toBeUndefined();
    await redis.set(redisKeyOf(issued.api_key), JSON.stringify(grantOf(issued)));
    expect(await directory.resolve(issued.api_key)).toBeUndefined();
  });

  it('resolves an unknown key to undefined', async () => {
    expect(await directory.resolve(`pix_test_${randomBytes(32).toString('base64url')}`)).toBeUndefined();
  });

  it('remembers an unknown key in Redis for a few seconds: within them it does not reach the database again', async () => {
    const unknown = `pix_test_${randomBytes(32).toString('base64url')}`;
    const before = await databaseLookups();
    expect(await directory.resolve(unknown)).toBeUndefined();
    expect(await databaseLookups()).toBe(before + 1);
    expect(await redis.get(redisKeyOf(unknown))).toBe('unknown');
    const ttl = await redis.pttl(redisKeyOf(unknown));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(UNKNOWN_KEY_TTL_MS);
    for (let i = 0; i < 5; i++) expect(await directory.resolve(unknown)).toBeUndefined();
    expect(await databaseLookups()).toBe(before + 1);
  });

  it('lets a key issued right after its hash was looked up, unknown, work at once', async () => {
    const drawn = newApiKey('sandbox');
    const issuing = new AccountsAdmin(
      new EventStore(dataSource),
      dataSource,
      directory,
      profiles,
      new FixedClock('2025-11-20T12:00:00.000Z'),
      secrets,
      () => drawn,
    );
    expect(await directory.resolve(drawn.apiKey)).toBeUndefined();
    expect(await redis.get(redisKeyOf(drawn.apiKey))).toBe('unknown');
    const issued = await issuing.issueKey(accountId, { environment: 'sandbox', read_only: true });
    expect(issued.api_key).toBe(drawn.apiKey);
    expect(await directory.resolve(drawn.apiKey)).toEqual(grantOf(issued));
  });

  it('never lets a lookup that read the database before a key was issued leave it unknown', async () => {
    const drawn = newApiKey('sandbox');
    const issuing = new AccountsAdmin(
      new EventStore(dataSource),
      dataSource,
      directory,
      profiles,
      new FixedClock('2025-11-20T12:00:00.000Z'),
      secrets,
      () => drawn,
    );
    // Redis as the racing gateway sees it: the key is issued between its database read and its SET of `unknown`.
    const racingRedis = new Proxy(redis, {
      get(target, property) {
        if (property === 'set') {
          return async (...args: Parameters<Redis['set']>) => {
            if (args.includes('unknown')) await issuing.issueKey(accountId, { environment: 'sandbox', read_only: true });
            return target.set(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await new ApiKeyDirectory(racingRedis, dataSource, prefix).resolve(drawn.apiKey)).toBeUndefined();
    expect(await directory.resolve(drawn.apiKey)).toMatchObject({ accountId, environment: 'sandbox' });
  });

  it('never writes an issued grant over a revocation that came first', async () => {
    const issued = await issue();
    await admin.revokeKey(issued.key_id);
    await directory.issued(hashApiKey(issued.api_key), grantOf(issued));
    expect(await redis.get(redisKeyOf(issued.api_key))).toBe('revoked');
    expect(await directory.resolve(issued.api_key)).toBeUndefined();
  });

  it('refuses a revoked key at once, although Redis had it cached as valid', async () => {
    const issued = await issue();
    await directory.resolve(issued.api_key);

    await admin.revokeKey(issued.key_id);

    expect(await directory.resolve(issued.api_key)).toBeUndefined();
  });

  it('falls back to the database when Redis lost its entries: still refuses a revoked key and accepts a live one', async () => {
    const live = await issue();
    const revoked = await issue();
    await directory.resolve(live.api_key);
    await admin.revokeKey(revoked.key_id);

    await deleteOurRedisKeys();

    expect(await directory.resolve(revoked.api_key)).toBeUndefined();
    expect(await redis.get(redisKeyOf(revoked.api_key))).toBe('revoked');
    expect(await directory.resolve(live.api_key)).toEqual(grantOf(live));
  });

  it('refuses a revoked key whose stale valid grant a racing lookup put in Redis', async () => {
    const issued = await issue();
    await redis.set(redisKeyOf(issued.api_key), JSON.stringify(cachedOf(issued)));

    await admin.revokeKey(issued.key_id);

    expect(await directory.resolve(issued.api_key)).toBeUndefined();
    expect(await redis.get(redisKeyOf(issued.api_key))).toBe('revoked');
  });

  it('never lets a lookup that read the database before the revocation put the key back in Redis', async () => {
    const issued = await issue();
    await redis.del(redisKeyOf(issued.api_key)); // Redis lost the grant issuing wrote: the lookup reads the database
    // Redis as the racing gateway sees it: the revocation commits between its database read and its SET NX.
    const racingRedis = new Proxy(redis, {
      get(target, property) {
        if (property === 'set') {
          return async (...args: Parameters<Redis['set']>) => {
            if (args.includes('NX')) await admin.revokeKey(issued.key_id);
            return target.set(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

    await new ApiKeyDirectory(racingRedis, dataSource, prefix).resolve(issued.api_key);

    expect(await redis.get(redisKeyOf(issued.api_key))).toBe('revoked');
    expect(await directory.resolve(issued.api_key)).toBeUndefined();
  });
});

describe('AccountProfiles (Redis + PostgreSQL)', () => {
  it('writes a changed profile through at once, and falls back to the database when Redis lost it', async () => {
    const opened = await admin.open({ name: 'Loja Perfil', wallet: false });
    expect(await profiles.get(opened.account_id)).toEqual({
      name: 'Loja Perfil',
      wallet: false,
      cashin_provider: 'PROVIDER_A',
      rate_limit: { production: 5000, sandbox: 5000 },
    });
    await admin.change(opened.account_id, { wallet: true });
    expect(await profiles.get(opened.account_id)).toMatchObject({ wallet: true });
    await redis.del(`${prefix}account:${opened.account_id}`);
    expect(await profiles.get(opened.account_id)).toMatchObject({ wallet: true });
    expect(await redis.get(`${prefix}account:${opened.account_id}`)).not.toBeNull();
  });

  it('carries the rate limits an operator sets, one environment at a time, also after Redis lost them', async () => {
    const opened = await admin.open({ name: 'Loja Limites', rate_limit: { production: 100 } });
    expect(opened.rate_limit).toEqual({ production: 100, sandbox: 5000 });
    expect(await admin.change(opened.account_id, { rate_limit: { sandbox: 7 } })).toMatchObject({ rate_limit: { production: 100, sandbox: 7 } });
    expect(await profiles.get(opened.account_id)).toMatchObject({ rate_limit: { production: 100, sandbox: 7 } });
    await redis.del(`${prefix}account:${opened.account_id}`);
    expect(await profiles.get(opened.account_id)).toMatchObject({ rate_limit: { production: 100, sandbox: 7 } });
    // An account opened before rate limits (no limits in its row) has the defaults.
    await dataSource.query('UPDATE accounts SET rate_limit = NULL WHERE account_id = $1', [opened.account_id]);
    expect((await admin.get(opened.account_id)).rate_limit).toEqual({ production: 5000, sandbox: 5000 });
  });

  it('records banking credentials and webhook secrets sealed, and shows the operator the secret in clear', async () => {
    const opened = await admin.open({
      name: 'Loja Sigilo',
      providers: [{ code: 'PROVIDER_A', credentials: { client_id: 'id-a', client_secret: 'very-secret' } }],
    });
    expect(opened.webhook_secret).toMatch(/^whsec_/);
    expect(opened.sandbox_webhook_secret).toMatch(/^whsec_/);
    expect(opened.sandbox_webhook_secret).not.toBe(opened.webhook_secret);
    const rotated = await admin.rotateWebhookSecret(opened.account_id, 'production');
    expect(rotated).toMatchObject({ environment: 'production', webhook_secret: expect.stringMatching(/^whsec_/) });
    // Nothing secret in the events (and so in the outbox and on Kafka) or in the read model.
    const stored = JSON.stringify([
      await dataSource.query('SELECT data FROM events WHERE stream_id = $1', [`account:${opened.account_id}`]),
      await dataSource.query('SELECT payload FROM outbox'),
      await dataSource.query('SELECT providers, webhook_secret, sandbox_webhook_secret FROM accounts WHERE account_id = $1', [opened.account_id]),
    ]);
    for (const secret of ['very-secret', 'id-a', opened.webhook_secret, opened.sandbox_webhook_secret, rotated.webhook_secret])
      expect(stored).not.toContain(secret);
    expect(stored).toContain('enc:v1:test:');
    // A rotation changes its environment's secret only.
    expect(await admin.get(opened.account_id)).toMatchObject({ webhook_secret: rotated.webhook_secret, sandbox_webhook_secret: opened.sandbox_webhook_secret });
    const sandbox = await admin.rotateWebhookSecret(opened.account_id, 'sandbox');
    expect(sandbox).toMatchObject({ environment: 'sandbox', previous_secret_valid_until: '2025-11-21T12:00:00.000Z' });
    expect(await admin.get(opened.account_id)).toMatchObject({ webhook_secret: rotated.webhook_secret, sandbox_webhook_secret: sandbox.webhook_secret });
  });

  it('an account opened with one secret for both environments keeps it for production and is issued a sandbox secret of its own, once', async () => {
    const legacyId = '7f0c1a2b-0000-4000-8000-0000000000aa';
    const shared = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    // As it was recorded then: one sealed secret, no sandbox one.
    const tenant = { accountId: legacyId, environment: 'production' as const };
    const context = {
      streamId: accountStreamId(legacyId),
      streamType: ACCOUNT_STREAM,
      tenant,
      now: new Date('2025-11-20T12:00:00.000Z'),
      topic: Topics.accounts.name,
      project: projectAccount,
    };
    const opening = {
      account_id: legacyId,
      name: 'Loja Antiga',
      wallet: true,
      cashin_provider: 'PROVIDER_A' as const,
      providers: [],
      webhook_secret: secrets.seal(shared),
    };
    expect((await new EventStore(dataSource).handle(account, { type: 'OpenAccount', data: opening }, context)).ok).toBe(true);

    expect(await admin.issueMissingSandboxSecrets()).toBeGreaterThanOrEqual(1);
    const migrated = await admin.get(legacyId);
    expect(migrated.webhook_secret).toBe(shared);
    expect(migrated.sandbox_webhook_secret).toMatch(/^whsec_/);
    expect(migrated.sandbox_webhook_secret).not.toBe(shared);
    const [issued] = await dataSource.query(`SELECT data FROM events WHERE stream_id = $1 AND type = 'account.webhook_secret_rotated'`, [
      accountStreamId(legacyId),
    ]);
    expect(issued.data).toMatchObject({ environment: 'sandbox', previous_secret: null, previous_valid_until: null });
    // A second start issues nothing more.
    expect(await admin.issueMissingSandboxSecrets()).toBe(0);
    expect((await admin.get(legacyId)).sandbox_webhook_secret).toBe(migrated.sandbox_webhook_secret);
  });

  it('knows no profile for an unknown account', async () => {
    expect(await profiles.get('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });
});
