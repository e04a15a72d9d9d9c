import { createHash, randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ConsoleRole, ConsoleSignInLinkResponse, ConsoleUserResponse, CreateConsoleUserRequest } from '@pixauto/contracts';
import { Messages, notFound, refuse, validation, type Refusal } from '@pixauto/errors';
import { Clock } from '@pixauto/pix';
import { HashSlots } from './hash-slots';
import { AuditActor, OPERATOR, recordAudit } from './audit-log';

/** OWASP's scrypt parameters: 128 MiB and about a tenth of a second per hash, off the event loop. */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } satisfies ScryptOptions;
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so they can be raised without breaking older ones. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Compared against when the address is unknown or has no password yet, so that either takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

/** The accounts one sign-in checks an address in (a hash each): a person in more accounts signs in with another address. */
const MAX_ACCOUNTS_PER_EMAIL = 5;

/** A sign-in link works this long after it is made, once. */
export const SIGN_IN_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** A sign-in link's token (256 random bits) and the hash of it that is kept: a copy of the database holds no usable link. */
export function newSignInToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: signInTokenHash(token) };
}

export const signInTokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** The console's page where a link's user chooses a password: the token travels in the fragment, which no server or log sees. */
export const signInUrl = (consoleUrl: string, token: string): string => `${consoleUrl.replace(/\/+$/, '')}/#/set-password/${token}`;

/**
 * Why this change of the account's users would leave it without an owner, or undefined when it does not: `role` is
 * the user's new role, or undefined when the user is removed.
 */
export function lastOwnerRefusal(
  users: readonly Pick<ConsoleUserResponse, 'user_id' | 'role'>[],
  userId: string,
  role: ConsoleRole | undefined,
): Refusal | undefined {
  const owners = users.filter((user) => user.role === 'owner');
  const losesAnOwner = owners.some((owner) => owner.user_id === userId) && role !== 'owner';
  return losesAnOwner && owners.length === 1 ? validation(Messages.admin.consoleLastOwner) : undefined;
}

interface ConsoleUserRow {
  user_id: string;
  account_id: string;
  email: string;
  role: ConsoleRole;
  /** Null until the user chooses a password with a sign-in link. */
  password_hash: string | null;
  created_at: Date;
  last_signed_in_at: Date | null;
}

const responseOf = (row: ConsoleUserRow): ConsoleUserResponse => ({
  user_id: row.user_id,
  account_id: row.account_id,
  email: row.email,
  role: row.role,
  created_at: row.created_at.toISOString(),
  last_signed_in_at: row.last_signed_in_at?.toISOString() ?? null,
});

/** Addresses compare without case or surrounding spaces: Ana@Loja.example and ana@loja.example are one person. */
const normalEmail = (email: string): string => email.trim().toLowerCase();

/** The rows an UPDATE ... RETURNING changed: TypeORM answers it with [rows, count]. */
const changedRows = (result: [ConsoleUserRow[], number]): ConsoleUserRow[] => result[0];

const COLUMNS = 'user_id, account_id, email, role, password_hash, created_at, last_signed_in_at';

/**
 * The people who sign in to the merchant console: created by the operator or an owner without a password, with a
 * one-time sign-in link with which they choose one; checked by the console server at sign-in.
 */
export class ConsoleUsers {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    /** The console's address as its users reach it: the sign-in links open it. */
    private readonly consoleUrl: string,
    /** Every hash this class makes runs in one of these slots (128 MiB each): one more at once is refused, 503. */
    private readonly hashes = new HashSlots(2),
  ) {}

  async create(accountId: string, request: CreateConsoleUserRequest, actor: AuditActor = OPERATOR): Promise<ConsoleSignInLinkResponse> {
    const now = this.clock.now();
    const { token, hash } = newSignInToken();
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
    const row = await this.dataSource.transaction(async (runner) => {
      const [created]: ConsoleUserRow[] = await runner.query(
        `INSERT INTO console_users (user_id, account_id, email, role, password_hash, created_at, sign_in_token_hash, sign_in_expires_at)
         VALUES ($1, $2, $3, $4, NULL, $5, $6, $7) ON CONFLICT (account_id, email) DO NOTHING RETURNING ${COLUMNS}`,
        [randomUUID(), accountId, normalEmail(request.email), request.role, now, hash, expiresAt],
      );
      if (created) {
        await recordAudit(runner, {
          accountId,
          environment: null,
          at: now,
          actor,
          action: 'team_member.added',
          object: created.email,
          detail: { role: created.role },
        });
      }
      return created;
    });
    if (!row) return refuse(validation(Messages.admin.consoleEmailTaken));
    return { user: responseOf(row), sign_in_url: signInUrl(this.consoleUrl, token), expires_at: expiresAt.toISOString() };
  }

  /** A new sign-in link for the user: the previous one stops working. Its use replaces the user's password, if they had one. */
  async newSignInLink(accountId: string, user: string): Promise<ConsoleSignInLinkResponse> {
    const { token, hash } = newSignInToken();
    const expiresAt = new Date(this.clock.now().getTime() + SIGN_IN_LINK_TTL_MS);
    const [row] = changedRows(
      await this.dataSource.query(
        // The user named by their user_id or their email address (the operator knows the address).
        `UPDATE console_users SET sign_in_token_hash = $4, sign_in_expires_at = $5 WHERE account_id = $1 AND (user_id = $2 OR email = $3) RETURNING ${COLUMNS}`,
        [accountId, user, normalEmail(user), hash, expiresAt],
      ),
    );
    if (!row) return refuse(notFound(Messages.admin.consoleUserNotFound));
    return { user: responseOf(row), sign_in_url: signInUrl(this.consoleUrl, token), expires_at: expiresAt.toISOString() };
  }

  /** Whether a sign-in link can still be used (known, unused, unexpired), without using it: the form is worth showing. */
  async signInLinkUsable(token: string): Promise<boolean> {
    const pending: unknown[] = await this.dataSource.query('SELECT 1 FROM console_users WHERE sign_in_token_hash = $1 AND sign_in_expires_at > $2', [
      signInTokenHash(token),
      this.clock.now(),
    ]);
    return pending.length > 0;
  }

  /**
   * The link's user, whose password is now this one: the link is used up by the same statement that sets the password,
   * so two uses at once make one password and one refusal. Unknown, used and expired links get the same refusal.
   */
  async useSignInLink(token: string, password: string): Promise<ConsoleUserResponse> {
    const hash = signInTokenHash(token);
    const now = this.clock.now();
    const pending: unknown[] = await this.dataSource.query('SELECT 1 FROM console_users WHERE sign_in_token_hash = $1 AND sign_in_expires_at > $2', [
      hash,
      now,
    ]);
    if (pending.length === 0) return refuse(notFound(Messages.admin.consoleSignInLinkInvalid));
    const passwordHash = await this.hashes.run(() => hashPassword(password));
    const [row] = changedRows(
      await this.dataSource.query(
        `UPDATE console_users SET password_hash = $3, sign_in_token_hash = NULL, sign_in_expires_at = NULL, last_signed_in_at = $2
       WHERE sign_in_token_hash = $1 AND sign_in_expires_at > $2 RETURNING ${COLUMNS}`,
        [hash, now, passwordHash],
      ),
    );
    return row ? responseOf(row) : refuse(notFound(Messages.admin.consoleSignInLinkInvalid));
  }

  /**
   * The user whose address and password these are; the same refusal whether the address or the password is wrong. An
   * address is unique within an account, not across them: each account's user of the address (who has a password) is
   * checked in turn, the most recently signed in first, and the first whose password matches is signed in.
   */
  async verify(email: string, password: string): Promise<ConsoleUserResponse> {
    const rows: ConsoleUserRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM console_users WHERE email = $1 AND password_hash IS NOT NULL
       ORDER BY last_signed_in_at DESC NULLS LAST, created_at LIMIT ${MAX_ACCOUNTS_PER_EMAIL}`,
      [normalEmail(email)],
    );
    if (rows.length === 0) {
      const decoyHash = await this.hashes.run(() => (decoy ??= hashPassword(randomBytes(18).toString('base64'))));
      await this.hashes.run(() => passwordMatches(password, decoyHash));
      return refuse(notFound(Messages.admin.consoleSignInRefused));
    }
    for (const row of rows) {
      const stored = row.password_hash as string;
      if (!(await this.hashes.run(() => passwordMatches(password, stored)))) continue;
      const signedInAt = this.clock.now();
      await this.dataSource.query('UPDATE console_users SET last_signed_in_at = $2 WHERE user_id = $1', [row.user_id, signedInAt]);
      return responseOf({ ...row, last_signed_in_at: signedInAt });
    }
    return refuse(notFound(Messages.admin.consoleSignInRefused));
  }

  /** A new password for the user, who proves it is them with the current one; a pending sign-in link stops working. */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<ConsoleUserResponse> {
    const [row]: ConsoleUserRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM console_users WHERE user_id = $1`, [userId]);
    if (!row) return refuse(notFound(Messages.admin.consoleUserNotFound));
    const stored = row.password_hash;
    if (!stored || !(await this.hashes.run(() => passwordMatches(currentPassword, stored))))
      return refuse(validation(Messages.admin.consoleCurrentPasswordWrong));
    const [changed] = changedRows(
      await this.dataSource.query(
        `UPDATE console_users SET password_hash = $3, sign_in_token_hash = NULL, sign_in_expires_at = NULL
       WHERE user_id = $1 AND password_hash = $2 RETURNING ${COLUMNS}`,
        [userId, row.password_hash, await this.hashes.run(() => hashPassword(newPassword))],
      ),
    );
    // Changed meanwhile by another request with the same current password: that one won, this one proves nothing now.
    return changed ? responseOf(changed) : refuse(validation(Messages.admin.consoleCurrentPasswordWrong));
  }

  async list(accountId: string): Promise<ConsoleUserResponse[]> {
    const rows: ConsoleUserRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM console_users WHERE account_id = $1 ORDER BY created_at, email`, [
      accountId,
    ]);
    return rows.map(responseOf);
  }

  /** A new role for the user; refused when it would leave the account without an owner. */
  async changeRole(accountId: string, user: string, role: ConsoleRole, actor: AuditActor = OPERATOR): Promise<ConsoleUserResponse> {
    return this.withTeamLocked(accountId, user, role, async (runner, row) => {
      const [changed] = changedRows(await runner.query(`UPDATE console_users SET role = $2 WHERE user_id = $1 RETURNING ${COLUMNS}`, [row.user_id, role]));
      // The same role again changes nothing, so records nothing.
      if (row.role !== role) {
        await recordAudit(runner, {
          accountId,
          environment: null,
          at: this.clock.now(),
          actor,
          action: 'team_member.role_changed',
          object: row.email,
          detail: { role, previous_role: row.role },
        });
      }
      return responseOf(changed);
    });
  }

  /** Removes the user (they can no longer sign in); refused when they are the account's last owner. Answers who was removed. */
  async remove(accountId: string, user: string, actor: AuditActor = OPERATOR): Promise<ConsoleUserResponse> {
    return this.withTeamLocked(accountId, user, undefined, async (runner, row) => {
      await runner.query('DELETE FROM console_users WHERE user_id = $1', [row.user_id]);
      await recordAudit(runner, {
        accountId,
        environment: null,
        at: this.clock.now(),
        actor,
        action: 'team_member.removed',
        object: row.email,
        detail: { role: row.role },
      });
      return responseOf(row);
    });
  }

  /** The account's users locked for the change (two owners demoting each other at once cannot both succeed), then the change. */
  private async withTeamLocked<T>(
    accountId: string,
    user: string,
    role: ConsoleRole | undefined,
    change: (runner: EntityManager, row: ConsoleUserRow) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (runner) => {
      const team: ConsoleUserRow[] = await runner.query(`SELECT ${COLUMNS} FROM console_users WHERE account_id = $1 ORDER BY user_id FOR UPDATE`, [accountId]);
      const normal = normalEmail(user);
      const row = team.find((candidate) => candidate.user_id === user || candidate.email === normal);
      if (!row) return refuse(notFound(Messages.admin.consoleUserNotFound));
      const refusal = lastOwnerRefusal(team, row.user_id, role);
      if (refusal) return refuse(refusal);
      return change(runner, row);
    });
  }
}
