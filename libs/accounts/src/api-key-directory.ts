import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Environment } from '@pixauto/contracts';
import { apiKeyLookups } from '@pixauto/metrics';
import { hashApiKey } from './api-key';
import { findApiKeyByHash } from './read-model/accounts.projection';

/** What a valid key grants: its tenant and its scope. */
export interface ApiKeyGrant {
  keyId: string;
  accountId: string;
  environment: Environment;
  readOnly: boolean;
  transactions: boolean;
}

/** What Redis keeps per key: the grant and the hash it was found by, compared again in constant time. */
interface CachedGrant extends ApiKeyGrant {
  keyHash: string;
}

const REVOKED = 'revoked';
/** A key the database does not know, remembered for a few seconds so that a flood of unknown keys does not reach it. */
const UNKNOWN = 'unknown';
/**
 * How long an unknown key is remembered. A key issued afterwards overwrites the entry when it is recorded (issued), so
 * this bounds only the case where that write to Redis failed.
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;

/** The grant over an absent entry or an `unknown`, never over a tombstone (a revocation that came first stays). */
const SET_UNLESS_REVOKED = `if redis.call('GET', KEYS[1]) ~= ARGV[2] then redis.call('SET', KEYS[1], ARGV[1]) end return 1`;

/**
 * Resolves API keys on every request through Redis, by hash: one round trip for a known, revoked or recently unknown key.
 * The database is the truth: a Redis miss reads it and fills Redis with SET NX (the grant, a tombstone, or `unknown`
 * for UNKNOWN_KEY_TTL_MS, shared by every gateway), and a revocation overwrites the entry with a tombstone, so a lookup
 * that raced with the revocation can never put the key back: it takes effect at once, on every gateway. An issued key
 * overwrites whatever its hash held, so a key works at once even if its hash was looked up, unknown, a moment before.
 *
 * Found by hash, then the stored hash is compared with the presented key's in constant time: whatever the
 * lookup's own timing leaks is about hashes of keys, and the final yes or no leaks nothing.
 * Entries are under `v2:` since they carry the hash; a miss reads the database, so older entries need no migration.
 */
export class ApiKeyDirectory {
  constructor(
    private readonly redis: Redis,
    private readonly dataSource: DataSource,
    private readonly prefix = 'pixauto:apikey:v2:',
  ) {}

  async resolve(apiKey: string): Promise<ApiKeyGrant | undefined> {
    const hash = hashApiKey(apiKey);
    // Redis down: answer from the database rather than refuse every merchant (revocations are there too).
    const cached = await this.redis.get(this.prefix + hash).catch(() => null);
    if (cached) apiKeyLookups.inc({ source: 'redis' });
    if (cached === REVOKED || cached === UNKNOWN) return undefined;
    if (cached) return grantIfSameHash(JSON.parse(cached) as CachedGrant, hash);
    apiKeyLookups.inc({ source: 'database' });
    const record = await findApiKeyByHash(this.dataSource.manager, hash);
    if (!record || !sameHash(record.key_hash, hash)) {
      await this.redis.set(this.prefix + hash, UNKNOWN, 'PX', UNKNOWN_KEY_TTL_MS, 'NX').catch(() => undefined);
      return undefined;
    }
    if (record.revoked) {
      await this.redis.set(this.prefix + hash, REVOKED).catch(() => undefined);
      return undefined;
    }
    const cachedGrant: CachedGrant = {
      keyHash: record.key_hash,
      keyId: record.key_id,
      accountId: record.account_id,
      environment: record.environment,
      readOnly: record.read_only,
      transactions: record.transactions,
    };
    await this.redis.set(this.prefix + hash, JSON.stringify(cachedGrant), 'NX').catch(() => undefined);
    return grantIfSameHash(cachedGrant, hash);
  }

  /**
   * After an issued key is recorded: its grant, over an `unknown` a lookup left a moment before (never over a
   * tombstone: a revocation that came in between stays). A lookup that read the database before the key's commit then finds the entry taken (its SET NX does
   * nothing). If Redis cannot be reached the key still works once an `unknown` has expired (UNKNOWN_KEY_TTL_MS).
   */
  async issued(keyHash: string, grant: ApiKeyGrant): Promise<void> {
    const cachedGrant: CachedGrant = { keyHash, ...grant };
    await this.redis.eval(SET_UNLESS_REVOKED, 1, this.prefix + keyHash, JSON.stringify(cachedGrant), REVOKED).catch(() => undefined);
  }

  /** Before a revocation is recorded: from this moment on the key is refused everywhere. */
  async revoke(keyHash: string): Promise<void> {
    await this.redis.set(this.prefix + keyHash, REVOKED);
  }
}

const sameHash = (stored: string, presented: string): boolean => {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
};

function grantIfSameHash({ keyHash, ...grant }: CachedGrant, presented: string): ApiKeyGrant | undefined {
  return typeof keyHash === 'string' && sameHash(keyHash, presented) ? grant : undefined;
}
