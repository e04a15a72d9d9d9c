import { randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ConsoleRole, ConsoleUserResponse, CreateConsoleUserRequest } from '@pixauto/contracts';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { Clock } from '@pixauto/pix';

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

/** Compared against when the address is unknown, so that an unknown address takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

interface ConsoleUserRow {
  user_id: string;
  account_id: string;
  email: string;
  role: ConsoleRole;
  password_hash: string;
  created_at: Date;
}

const responseOf = (row: ConsoleUserRow): ConsoleUserResponse => ({
  user_id: row.user_id,
  account_id: row.account_id,
  email: row.email,
  role: row.role,
  created_at: row.created_at.toISOString(),
});

/** Addresses compare without case or surrounding spaces: Ana@Loja.example and ana@loja.example are one person. */
const normalEmail = (email: string): string => email.trim().toLowerCase();

/** The people who sign in to the merchant console: created by the operator, checked by the console server at sign-in. */
export class ConsoleUsers {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, request: CreateConsoleUserRequest): Promise<ConsoleUserResponse> {
    const generated = request.password === undefined ? randomBytes(18).toString('base64url') : undefined;
    const row: ConsoleUserRow = {
      user_id: randomUUID(),
      account_id: accountId,
      email: normalEmail(request.email),
      role: request.role,
      password_hash: await hashPassword(request.password ?? (generated as string)),
      created_at: this.clock.now(),
    };
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO console_users (user_id, account_id, email, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (email) DO NOTHING RETURNING user_id`,
      [row.user_id, row.account_id, row.email, row.role, row.password_hash, row.created_at],
    );
    if (inserted.length === 0) return refuse(validation(Messages.admin.consoleEmailTaken));
    return { ...responseOf(row), ...(generated !== undefined && { password: generated }) };
  }

  /** The user whose address and password these are; the same refusal whether the address or the password is wrong. */
  async verify(email: string, password: string): Promise<ConsoleUserResponse> {
    const [row]: ConsoleUserRow[] = await this.dataSource.query('SELECT * FROM console_users WHERE email = $1', [normalEmail(email)]);
    if (!row) {
      await passwordMatches(password, await (decoy ??= hashPassword(randomBytes(18).toString('base64'))));
      return refuse(notFound(Messages.admin.consoleSignInRefused));
    }
    if (!(await passwordMatches(password, row.password_hash))) return refuse(notFound(Messages.admin.consoleSignInRefused));
    return responseOf(row);
  }
}
