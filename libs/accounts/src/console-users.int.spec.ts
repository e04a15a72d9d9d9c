import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { EventStore } from '@pixauto/event-store';
import { SecretBox } from '@pixauto/secrets';
import { FixedClock } from '@pixauto/pix';
import { createTestDataSource, dropTestDataSource } from '../../event-store/src/testing/test-database';
import { AccountProfiles } from './account-profiles';
import { AccountsAdmin } from './accounts-admin';
import { ApiKeyDirectory } from './api-key-directory';
import { ConsoleUsers } from './console-users';
import { AccountsRateLimits1763800000720, AccountsReadModel1763800000200, ConsoleUsers1763800000900 } from './read-model/accounts.migration';

// Console users against real PostgreSQL: created with their account, one per email, checked at sign-in.

const prefix = `pixauto:test:${randomBytes(4).toString('hex')}:console-users:`;
const clock = new FixedClock('2025-11-20T12:00:00.000Z');
let dataSource: DataSource;
let redis: Redis;
let users: ConsoleUsers;
let accountId: string;

beforeAll(async () => {
  dataSource = await createTestDataSource('accounts', [AccountsReadModel1763800000200, AccountsRateLimits1763800000720, ConsoleUsers1763800000900]);
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  const admin = new AccountsAdmin(
    new EventStore(dataSource),
    dataSource,
    new ApiKeyDirectory(redis, dataSource, prefix),
    new AccountProfiles(redis, dataSource, `${prefix}account:`),
    clock,
    new SecretBox([['test', randomBytes(32)]]),
  );
  accountId = (await admin.open({ name: 'Loja Teste' })).account_id;
  users = new ConsoleUsers(dataSource, clock);
});

afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await dropTestDataSource(dataSource);
});

describe('ConsoleUsers (PostgreSQL)', () => {
  it('creates a user whose password only it matches, keeping only a hash', async () => {
    const created = await users.create(accountId, { email: 'Ana@Loja.example ', role: 'developer', password: 'a long passphrase here' });
    expect(created).toEqual({
      user_id: expect.any(String),
      account_id: accountId,
      email: 'ana@loja.example',
      role: 'developer',
      created_at: '2025-11-20T12:00:00.000Z',
    });
    expect(await users.verify('ANA@loja.example', 'a long passphrase here')).toEqual(created);
    await expect(users.verify('ana@loja.example', 'a long passphrase herE')).rejects.toThrow('Email or password is wrong');
    await expect(users.verify('nobody@loja.example', 'a long passphrase here')).rejects.toThrow('Email or password is wrong');
    const [row] = await dataSource.query('SELECT password_hash FROM console_users WHERE user_id = $1', [created.user_id]);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('passphrase');
  });

  it('generates a password, shown once, when none is given', async () => {
    const created = await users.create(accountId, { email: 'bia@loja.example', role: 'viewer' });
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await users.verify('bia@loja.example', created.password as string)).toMatchObject({ role: 'viewer' });
  });

  it('refuses a second user with the same email', async () => {
    await expect(users.create(accountId, { email: 'ANA@loja.example', role: 'owner', password: 'another passphrase' })).rejects.toThrow(
      'body.email already belongs to a console user',
    );
  });
});
