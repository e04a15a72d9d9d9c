import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { Environment } from '@pixauto/contracts';
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

/**
 * Resolves API keys on every request through Redis, by hash. The database is the truth: a Redis miss reads it
 * and fills Redis with SET NX, and a revocation overwrites the entry with a tombstone, so a lookup that raced
 * with the revocation can never put the key back: it takes effect at once, on every gateway.
 *
 * Found by hash, then the stored hash is compared with the presented key's in constant time (#12 §5): whatever the
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
    if (cached === REVOKED) return undefined;
    if (cached) return grantIfSameHash(JSON.parse(cached) as CachedGrant, hash);
    const record = await findApiKeyByHash(this.dataSource.manager, hash);
    if (!record || !sameHash(record.key_hash, hash)) return undefined;
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
