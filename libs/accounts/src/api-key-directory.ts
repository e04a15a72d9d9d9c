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

const REVOKED = 'revoked';

/**
 * Resolves API keys on every request through Redis, by hash. The database is the truth: a Redis miss reads it
 * and fills Redis with SET NX, and a revocation overwrites the entry with a tombstone, so a lookup that raced
 * with the revocation can never put the key back: it takes effect at once, on every gateway.
 */
export class ApiKeyDirectory {
  constructor(private readonly redis: Redis, private readonly dataSource: DataSource, private readonly prefix = 'pixauto:apikey:') {}

  async resolve(apiKey: string): Promise<ApiKeyGrant | undefined> {
    const hash = hashApiKey(apiKey);
    // Redis down: answer from the database rather than refuse every merchant (revocations are there too).
    const cached = await this.redis.get(this.prefix + hash).catch(() => null);
    if (cached === REVOKED) return undefined;
    if (cached) return JSON.parse(cached) as ApiKeyGrant;
    const record = await findApiKeyByHash(this.dataSource.manager, hash);
    if (!record) return undefined;
    if (record.revoked) {
      await this.redis.set(this.prefix + hash, REVOKED).catch(() => undefined);
      return undefined;
    }
    const grant: ApiKeyGrant = {
      keyId: record.key_id,
      accountId: record.account_id,
      environment: record.environment,
      readOnly: record.read_only,
      transactions: record.transactions,
    };
    await this.redis.set(this.prefix + hash, JSON.stringify(grant), 'NX').catch(() => undefined);
    return grant;
  }

  /** Before a revocation is recorded: from this moment on the key is refused everywhere. */
  async revoke(keyHash: string): Promise<void> {
    await this.redis.set(this.prefix + keyHash, REVOKED);
  }
}
