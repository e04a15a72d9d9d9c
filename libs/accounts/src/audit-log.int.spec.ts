import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { EventStore } from '@pixauto/event-store';
import { SecretBox } from '@pixauto/secrets';
import { FixedClock } from '@pixauto/pix';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { AccountProfiles } from './account-profiles';
import { AccountsAdmin } from './accounts-admin';
import { ApiKeyDirectory } from './api-key-directory';
import { actorOfHeader, AuditWriter, readAuditLog, recordAudit } from './audit-log';
import { ConsoleUsers } from './console-users';
import { ACCOUNT_MIGRATIONS } from './read-model/accounts.migration';

// The audit log against real PostgreSQL: each change of keys, secrets and team writes its entry with it, naming who
// made it; a refused change writes none; the log reads newest first a page at a time and can only grow.

const prefix = `pixauto:test:${randomBytes(4).toString('hex')}:audit:`;
const clock = new FixedClock('2026-11-20T12:00:00.000Z');
let dataSource: DataSource;
let redis: Redis;
let admin: AccountsAdmin;
let users: ConsoleUsers;
let accountId: string;
let otherAccountId: string;

beforeAll(async () => {
  dataSource = await createTestDataSource('audit', ACCOUNT_MIGRATIONS);
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  admin = new AccountsAdmin(
    new EventStore(dataSource),
    dataSource,
    new ApiKeyDirectory(redis, dataSource, prefix),
    new AccountProfiles(redis, dataSource, `${prefix}account:`),
    clock,
    new SecretBox([['test', randomBytes(32)]]),
  );
  users = new ConsoleUsers(dataSource, clock, 'http://console.test');
  accountId = (await admin.open({ name: 'Loja Auditada' })).account_id;
  otherAccountId = (await admin.open({ name: 'Outra Loja' })).account_id;
});

afterAll(async () => {
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await dropTestDataSource(dataSource);
});

const ana = { type: 'console_user', email: 'ana@loja.example' } as const;
const entries = async (account = accountId) => (await readAuditLog(dataSource.manager, account, { limit: '100' })).entries;

describe('the audit log (PostgreSQL)', () => {
  it('records keys issued and revoked and secrets rotated with their events, by whom, and a revocation repeated once', async () => {
    const issued = await admin.issueKey(accountId, { environment: 'sandbox', read_only: true, name: '  Billing backend ' }, ana);
    expect(issued.name).toBe('Billing backend');
    const byOperator = await admin.issueKey(accountId, { environment: 'production' });
    await admin.revokeKey(issued.key_id, ana);
    await admin.revokeKey(issued.key_id, ana); // already revoked: nothing appended, nothing recorded
    await admin.rotateWebhookSecret(accountId, 'production', { type: 'console' });
    expect(await entries()).toEqual([
      expect.objectContaining({ action: 'webhook_secret.rotated', environment: 'production', actor_type: 'console', actor: null, object: 'webhook_secret' }),
      expect.objectContaining({
        action: 'api_key.revoked',
        environment: 'sandbox',
        actor_type: 'console_user',
        actor: 'ana@loja.example',
        object: issued.key_id,
      }),
      expect.objectContaining({ action: 'api_key.created', environment: 'production', actor_type: 'operator', actor: null, object: byOperator.key_id }),
      {
        id: expect.stringMatching(/^\d+$/),
        at: '2026-11-20T12:00:00.000Z',
        action: 'api_key.created',
        environment: 'sandbox',
        actor_type: 'console_user',
        actor: 'ana@loja.example',
        object: issued.key_id,
        detail: { read_only: true, transactions: true, name: 'Billing backend' },
      },
    ]);
    // Each entry and its event were one statement: as many key events as key entries.
    expect((await admin.listKeys(accountId)).map((key) => [key.key_id, key.name])).toEqual(
      expect.arrayContaining([
        [issued.key_id, 'Billing backend'],
        [byOperator.key_id, null],
      ]),
    );
    const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM events WHERE account_id = $1 AND stream_type = 'api_key'`, [accountId]);
    expect(count).toBe(3);
    expect(await entries(otherAccountId)).toEqual([]);
  });

  it('records team members added, given another role and removed, and nothing for a refused or empty change', async () => {
    const account = (await admin.open({ name: 'Loja da Equipe' })).account_id;
    await users.create(account, { email: 'Owner@Loja.example', role: 'owner' });
    const { user } = await users.create(account, { email: 'bia@loja.example', role: 'developer' }, ana);
    await expect(users.create(account, { email: 'bia@loja.example', role: 'viewer' }, ana)).rejects.toMatchObject({ refusal: { kind: 'validation' } });
    await users.changeRole(account, user.user_id, 'viewer', ana);
    await users.changeRole(account, user.user_id, 'viewer', ana); // the same role: no change
    await expect(users.changeRole(account, 'owner@loja.example', 'viewer', ana)).rejects.toMatchObject({ refusal: { kind: 'validation' } });
    await users.remove(account, user.user_id, ana);
    expect(
      (await entries(account)).map(({ action, actor_type, actor, object, detail, environment }) => ({
        action,
        actor_type,
        actor,
        object,
        detail,
        environment,
      })),
    ).toEqual([
      {
        action: 'team_member.removed',
        actor_type: 'console_user',
        actor: 'ana@loja.example',
        object: 'bia@loja.example',
        detail: { role: 'viewer' },
        environment: null,
      },
      {
        action: 'team_member.role_changed',
        actor_type: 'console_user',
        actor: 'ana@loja.example',
        object: 'bia@loja.example',
        detail: { role: 'viewer', previous_role: 'developer' },
        environment: null,
      },
      {
        action: 'team_member.added',
        actor_type: 'console_user',
        actor: 'ana@loja.example',
        object: 'bia@loja.example',
        detail: { role: 'developer' },
        environment: null,
      },
      { action: 'team_member.added', actor_type: 'operator', actor: null, object: 'owner@loja.example', detail: { role: 'owner' }, environment: null },
    ]);
  });

  it('reads newest first, a page at a time, and refuses a cursor no page gave', async () => {
    const account = (await admin.open({ name: 'Loja Paginada' })).account_id;
    for (let n = 0; n < 5; n++) {
      await recordAudit(dataSource.manager, {
        accountId: account,
        environment: 'sandbox',
        at: clock.now(),
        actor: ana,
        action: 'sandbox_clock.advanced',
        object: 'sandbox_clock',
        detail: { ms: (n + 1) * 3_600_000 },
      });
    }
    const first = await readAuditLog(dataSource.manager, account, { limit: '2' });
    const second = await readAuditLog(dataSource.manager, account, { limit: '2', cursor: first.next_cursor as string });
    const third = await readAuditLog(dataSource.manager, account, { limit: '2', cursor: second.next_cursor as string });
    expect([first, second, third].flatMap((page) => page.entries.map((entry) => entry.detail.ms))).toEqual([5, 4, 3, 2, 1].map((h) => h * 3_600_000));
    expect(third.next_cursor).toBeNull();
    await expect(readAuditLog(dataSource.manager, account, { cursor: 'abc' })).rejects.toMatchObject({ refusal: { kind: 'validation' } });
    await expect(readAuditLog(dataSource.manager, account, { limit: '0' })).rejects.toMatchObject({ refusal: { kind: 'validation' } });
  });

  it('reads an account through its index, not the whole log', async () => {
    const plan: { 'QUERY PLAN': string }[] = await dataSource.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off'); // a tiny table is rightly read whole otherwise
      await tx.query('SET LOCAL enable_bitmapscan = off');
      return tx.query(`EXPLAIN SELECT id FROM audit_log WHERE account_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT 26`, [
        accountId,
        null,
      ]);
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan using audit_log_newest/);
  });

  it('can only grow: changing, deleting or emptying it is refused by the database', async () => {
    await expect(dataSource.query(`UPDATE audit_log SET actor = 'someone@else.example'`)).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(dataSource.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/);
    await expect(dataSource.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect((await entries()).length).toBe(4);
  });

  it('writes the entries that wait on one another in one statement each batch, every caller answered once its own is stored', async () => {
    const writerAccount = `writer-${randomBytes(4).toString('hex')}`;
    let statements = 0;
    let failNext = false;
    const counting = {
      query: (text: string, values: unknown[]) => {
        statements++;
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('connection lost'));
        }
        return dataSource.manager.query(text, values);
      },
    } as unknown as EntityManager;
    const writer = new AuditWriter(counting);
    const entry = (i: number) => ({
      accountId: writerAccount,
      environment: i % 2 === 0 ? ('sandbox' as const) : null,
      at: clock.now(),
      actor: i % 3 === 0 ? ana : ({ type: 'api_key', keyId: `key-${i}` } as const),
      action: 'customer_limit.set' as const,
      object: `customer ${i}`,
      detail: { i },
    });
    await Promise.all(Array.from({ length: 60 }, (_, i) => writer.write(entry(i))));
    // The first is written at once; the 59 that came while it ran, in the next statement.
    expect(statements).toBe(2);
    const written = await entries(writerAccount);
    expect(written).toHaveLength(60);
    expect(written.find((e) => e.object === 'customer 3')).toMatchObject({ environment: null, actor_type: 'console_user', actor: ana.email, detail: { i: 3 } });
    expect(written.find((e) => e.object === 'customer 4')).toMatchObject({ environment: 'sandbox', actor_type: 'api_key', actor: 'key-4' });

    failNext = true;
    const outcomes = await Promise.allSettled([writer.write(entry(100)), writer.write(entry(101))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']); // the failed batch is the first alone
    await writer.write(entry(102));
    expect((await entries(writerAccount)).map((e) => e.object)).toEqual(expect.arrayContaining(['customer 101', 'customer 102']));
    expect((await entries(writerAccount)).map((e) => e.object)).not.toContain('customer 100');
  });

  it("takes the admin API's header as the console sends it, and the operator otherwise", () => {
    expect(actorOfHeader('ana%40loja.example')).toEqual(ana);
    expect(actorOfHeader('console')).toEqual({ type: 'console' });
    expect(actorOfHeader(undefined)).toEqual({ type: 'operator' });
    expect(actorOfHeader('nobody')).toEqual({ type: 'operator' });
    expect(actorOfHeader('%E0%A4%A')).toEqual({ type: 'operator' });
  });
});
