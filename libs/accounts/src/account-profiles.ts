import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { AccountProfile } from '@pixauto/contracts';
import { findAccount } from './read-model/accounts.projection';

/**
 * What the gateway and services need to know of an account (its name, wallet, cash-in bank and rate limits), through Redis. The admin use cases
 * overwrite the entry after every change; a miss reads the database and fills it with SET NX, so a lookup racing
 * a change can never put the old profile back.
 */
export class AccountProfiles {
  constructor(
    private readonly redis: Redis,
    private readonly dataSource: DataSource,
    private readonly prefix = 'pixauto:account:',
  ) {}

  async get(accountId: string): Promise<AccountProfile | undefined> {
    const cached = await this.redis.get(this.prefix + accountId).catch(() => null);
    if (cached) return JSON.parse(cached) as AccountProfile;
    const account = await findAccount(this.dataSource.manager, accountId);
    if (!account) return undefined;
    const profile: AccountProfile = { name: account.name, wallet: account.wallet, cashin_provider: account.cashin_provider, rate_limit: account.rate_limit };
    await this.redis.set(this.prefix + accountId, JSON.stringify(profile), 'NX').catch(() => undefined);
    return profile;
  }

  /** After a change commits. */
  async changed(accountId: string, profile: AccountProfile): Promise<void> {
    await this.redis.set(this.prefix + accountId, JSON.stringify(profile));
  }
}
