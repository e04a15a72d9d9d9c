import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { EventStore } from '@pixauto/event-store';
import { SecretBox } from '@pixauto/secrets';
import { FixedClock } from '@pixauto/pix';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { AccountProfiles } from './account-profiles';
import { AccountsAdmin } from './accounts-admin';
import { ApiKeyDirectory } from './api-key-directory';
import { ConsoleUsers } from './console-users';
import { ACCOUNT_MIGRATIONS } from './read-model/accounts.migration';
import { HashSlots } from './hash-slots';

// Console users against real PostgreSQL: created with their account, one per email within it, checked at sign-in.

const prefix = `pixauto:test:${randomBytes(4).toString('hex')}:console-users:`;
const clock = new FixedClock('2025-11-20T12:00:00.000Z');
let dataSource: DataSource;
let redis: Redis;
let users: ConsoleUsers;
let accountId: string;
let otherAccountId: string;
/** An account of its own for the email shared across accounts. */
let sharingAccountId: string;

beforeAll(async () => {
  dataSource = await createTestDataSource('accounts', ACCOUNT_MIGRATIONS);
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
  otherAccountId = (await admin.open({ name: 'Outra Loja' })).account_id;
  sharingAccountId = (await admin.open({ name: 'Terceira Loja' })).account_id;
  users = new ConsoleUsers(dataSource, clock, 'http://console.test');
});

afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await dropTestDataSource(dataSource);
});

const tokenOf = (url: string): string => url.replace('http://console.test/#/set-password/', '');

/** A user of the account with their password chosen through their link, as every user gets one. */
async function userWithPassword(email: string, role: 'owner' | 'developer' | 'viewer', password: string, account = accountId) {
  const { sign_in_url: url } = await users.create(account, { email, role });
  return users.useSignInLink(tokenOf(url), password);
}

describe('ConsoleUsers (PostgreSQL)', () => {
  it('creates a user without a password, with a link that sets one once, keeping only hashes', async () => {
    const created = await users.create(accountId, { email: 'Ana@Loja.example ', role: 'developer' });
    expect(created).toEqual({
      user: {
        user_id: expect.any(String),
        account_id: accountId,
        email: 'ana@loja.example',
        role: 'developer',
        created_at: '2025-11-20T12:00:00.000Z',
        last_signed_in_at: null,
      },
      sign_in_url: expect.stringMatching(/^http:\/\/console\.test\/#\/set-password\/[A-Za-z0-9_-]{43}$/),
      expires_at: '2025-11-21T12:00:00.000Z',
    });
    const token = tokenOf(created.sign_in_url);
    // No password yet: no sign-in, whatever is tried.
    await expect(users.verify('ana@loja.example', '')).rejects.toThrow('Email or password is wrong');
    const [pending] = await dataSource.query('SELECT password_hash, sign_in_token_hash FROM console_users WHERE user_id = $1', [created.user.user_id]);
    expect(pending).toEqual({ password_hash: null, sign_in_token_hash: expect.not.stringContaining(token) });

    clock.advance(60_000);
    expect(await users.useSignInLink(token, 'a long passphrase here')).toEqual({ ...created.user, last_signed_in_at: '2025-11-20T12:01:00.000Z' });
    await expect(users.useSignInLink(token, 'another passphrase here')).rejects.toThrow(
      'This sign-in link has expired or was already used: ask an owner of your account for a new one',
    );
    expect(await users.verify('ANA@loja.example', 'a long passphrase here')).toMatchObject({ email: 'ana@loja.example', role: 'developer' });
    await expect(users.verify('ana@loja.example', 'another passphrase here')).rejects.toThrow('Email or password is wrong');
    await expect(users.verify('ana@loja.example', 'a long passphrase herE')).rejects.toThrow('Email or password is wrong');
    await expect(users.verify('nobody@loja.example', 'a long passphrase here')).rejects.toThrow('Email or password is wrong');
    const [row] = await dataSource.query('SELECT password_hash, sign_in_token_hash FROM console_users WHERE user_id = $1', [created.user.user_id]);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('passphrase');
    expect(row.sign_in_token_hash).toBeNull();
  });

  it('tells a usable link from a used, replaced, expired or unknown one without using it', async () => {
    const { sign_in_url: url } = await users.create(accountId, { email: 'check@loja.example', role: 'viewer' });
    expect(await users.signInLinkUsable(tokenOf(url))).toBe(true);
    expect(await users.signInLinkUsable(tokenOf(url))).toBe(true); // checking used nothing
    expect(await users.signInLinkUsable('not-a-token')).toBe(false);
    await users.useSignInLink(tokenOf(url), 'a long passphrase here');
    expect(await users.signInLinkUsable(tokenOf(url))).toBe(false);
    const replaced = await users.newSignInLink(accountId, 'check@loja.example');
    const latest = await users.newSignInLink(accountId, 'check@loja.example');
    expect(await users.signInLinkUsable(tokenOf(replaced.sign_in_url))).toBe(false);
    expect(await users.signInLinkUsable(tokenOf(latest.sign_in_url))).toBe(true);
    clock.advance(24 * 60 * 60 * 1000);
    expect(await users.signInLinkUsable(tokenOf(latest.sign_in_url))).toBe(false);
  });

  it('refuses an unknown link, and one past its 24 hours, leaving the user without a password', async () => {
    const { sign_in_url: url } = await users.create(accountId, { email: 'late@loja.example', role: 'viewer' });
    await expect(users.useSignInLink('not-a-token', 'a long passphrase here')).rejects.toThrow('This sign-in link has expired or was already used');
    clock.advance(24 * 60 * 60 * 1000);
    await expect(users.useSignInLink(tokenOf(url), 'a long passphrase here')).rejects.toThrow('This sign-in link has expired or was already used');
    await expect(users.verify('late@loja.example', 'a long passphrase here')).rejects.toThrow('Email or password is wrong');
  });

  it('lets one of two uses of a link at the same moment set the password', async () => {
    const { sign_in_url: url } = await users.create(accountId, { email: 'twice@loja.example', role: 'viewer' });
    const outcomes = await Promise.allSettled([
      users.useSignInLink(tokenOf(url), 'first passphrase here'),
      users.useSignInLink(tokenOf(url), 'second passphrase here'),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const won = outcomes[0].status === 'fulfilled' ? 'first passphrase here' : 'second passphrase here';
    expect(await users.verify('twice@loja.example', won)).toMatchObject({ email: 'twice@loja.example' });
  });

  it('makes a new link, by user id or email, that replaces the previous one and the password', async () => {
    const created = await users.create(accountId, { email: 'relink@loja.example', role: 'viewer' });
    const again = await users.newSignInLink(accountId, 'Relink@Loja.example');
    expect(again.user.user_id).toBe(created.user.user_id);
    await expect(users.useSignInLink(tokenOf(created.sign_in_url), 'a long passphrase here')).rejects.toThrow('already used');
    await users.useSignInLink(tokenOf(again.sign_in_url), 'a long passphrase here');
    const third = await users.newSignInLink(accountId, created.user.user_id);
    await users.useSignInLink(tokenOf(third.sign_in_url), 'a forgotten one replaced');
    await expect(users.verify('relink@loja.example', 'a long passphrase here')).rejects.toThrow('Email or password is wrong');
    expect(await users.verify('relink@loja.example', 'a forgotten one replaced')).toMatchObject({ user_id: created.user.user_id });
    await expect(users.newSignInLink(otherAccountId, created.user.user_id)).rejects.toThrow('Console user not found');
  });

  it('refuses a second user with the same email in the account', async () => {
    await expect(users.create(accountId, { email: 'ANA@loja.example', role: 'owner' })).rejects.toThrow(
      'body.email already belongs to a console user of this account',
    );
  });

  it("scopes an email to its account: another account's owner adds the same address without learning or taking anything", async () => {
    const mine = await userWithPassword('shared@loja.example', 'owner', 'my own passphrase here');
    // Another account adds the address (and, holding the link, even chooses its password): created like any other.
    const theirs = await userWithPassword('Shared@Loja.example', 'viewer', 'the other passphrase', sharingAccountId);
    expect(theirs).toMatchObject({ account_id: sharingAccountId, email: 'shared@loja.example' });
    // Each password signs in to its own account's user, whichever signed in last.
    expect(await users.verify('shared@loja.example', 'my own passphrase here')).toMatchObject({ user_id: mine.user_id, account_id: accountId });
    expect(await users.verify('shared@loja.example', 'the other passphrase')).toMatchObject({ user_id: theirs.user_id, account_id: sharingAccountId });
    await expect(users.verify('shared@loja.example', 'neither of them')).rejects.toThrow('Email or password is wrong');
    expect((await users.list(accountId)).filter((user) => user.email === 'shared@loja.example')).toHaveLength(1);
  });

  it('runs at most its slots of password hashes at once, and refuses one more at once with 503 and Retry-After', async () => {
    await userWithPassword('burst@loja.example', 'viewer', 'the burst passphrase');
    const slots = new HashSlots(2);
    const bounded = new ConsoleUsers(dataSource, clock, 'http://console.test', slots);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => bounded.verify('burst@loja.example', 'a wrong guess, again')));
    const refusals = outcomes.map((outcome) =>
      outcome.status === 'rejected' ? (outcome.reason as { refusal?: { kind: string; retryAfterSeconds?: number } }).refusal : undefined,
    );
    expect(slots.peak).toBe(2);
    expect(slots.inUse).toBe(0);
    // Every guess answered at once: refused as wrong after its hash, or refused busy without one; none waits for a slot.
    const wrong = refusals.filter((refusal) => refusal?.kind === 'not_found').length;
    const busy = refusals.filter((refusal) => refusal?.kind === 'unavailable' && refusal.retryAfterSeconds === 1).length;
    expect(wrong + busy).toBe(8);
    expect(busy).toBeGreaterThanOrEqual(4);
  });

  it('changes a password only with the current one', async () => {
    const user = await userWithPassword('change@loja.example', 'viewer', 'the first passphrase');
    await expect(users.changePassword(user.user_id, 'not the passphrase', 'the second passphrase')).rejects.toThrow('body.current_password is wrong');
    expect(await users.verify('change@loja.example', 'the first passphrase')).toMatchObject({ user_id: user.user_id });
    await users.changePassword(user.user_id, 'the first passphrase', 'the second passphrase');
    await expect(users.verify('change@loja.example', 'the first passphrase')).rejects.toThrow('Email or password is wrong');
    expect(await users.verify('change@loja.example', 'the second passphrase')).toMatchObject({ user_id: user.user_id });
  });

  it("lists an account's users, changes roles and removes users, keeping at least one owner", async () => {
    const owner = (await users.create(otherAccountId, { email: 'owner@outra.example', role: 'owner' })).user;
    clock.advance(1000);
    const developer = (await users.create(otherAccountId, { email: 'dev@outra.example', role: 'developer' })).user;
    expect((await users.list(otherAccountId)).map((user) => [user.email, user.role])).toEqual([
      ['owner@outra.example', 'owner'],
      ['dev@outra.example', 'developer'],
    ]);
    await expect(users.changeRole(otherAccountId, owner.user_id, 'developer')).rejects.toThrow('The account must keep at least one owner');
    await expect(users.remove(otherAccountId, 'OWNER@outra.example')).rejects.toThrow('The account must keep at least one owner');
    await expect(users.remove(accountId, developer.user_id)).rejects.toThrow('Console user not found');
    expect(await users.changeRole(otherAccountId, developer.email, 'owner')).toMatchObject({ user_id: developer.user_id, role: 'owner' });
    // Two owners now: each may step down, but not both at once.
    const outcomes = await Promise.allSettled([users.changeRole(otherAccountId, owner.user_id, 'viewer'), users.remove(otherAccountId, developer.user_id)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const remaining = await users.list(otherAccountId);
    expect(remaining.filter((user) => user.role === 'owner')).toHaveLength(1);
    expect(await users.list(accountId)).not.toContainEqual(expect.objectContaining({ email: 'owner@outra.example' }));
  });

  it('removes a user, who can no longer sign in', async () => {
    await userWithPassword('gone@loja.example', 'developer', 'a long passphrase here');
    expect(await users.remove(accountId, 'gone@loja.example')).toMatchObject({ email: 'gone@loja.example' });
    await expect(users.verify('gone@loja.example', 'a long passphrase here')).rejects.toThrow('Email or password is wrong');
    await expect(users.remove(accountId, 'gone@loja.example')).rejects.toThrow('Console user not found');
  });
});
