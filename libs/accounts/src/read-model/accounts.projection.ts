import { EntityManager } from 'typeorm';
import { AccountEventTypes, AccountResponse, rotatedEnvironmentOf, ApiKeyIssuedData, ApiKeySummaryResponse, Environment } from '@pixauto/contracts';
import { Projection, RecordedEvent, sql, SqlStatement } from '@pixauto/event-store';
import { AccountEvent, rateLimitsOf } from '../account';
import { ApiKeyEvent } from '../api-key';

/** accounts and api_keys read models: one statement per event (an append here never carries two for one row). */
export const projectAccount: Projection<AccountEvent | ApiKeyEvent, unknown> = (events) => events.map(statementFor);

function statementFor(event: RecordedEvent<AccountEvent | ApiKeyEvent>): SqlStatement {
  switch (event.type) {
    case AccountEventTypes.opened: {
      const a = event.data;
      return sql(
        `INSERT INTO accounts (account_id, name, wallet, cashin_provider, providers, webhook_secret, rate_limit, created_at, updated_at, sandbox_webhook_secret)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb, $8, $8, $9)`,
        [
          a.account_id,
          a.name,
          a.wallet,
          a.cashin_provider,
          JSON.stringify(a.providers),
          a.webhook_secret,
          a.rate_limit ? JSON.stringify(a.rate_limit) : null,
          event.occurredAt,
          a.sandbox_webhook_secret ?? null,
        ],
      );
    }
    case AccountEventTypes.changed: {
      const c = event.data;
      return sql(
        `UPDATE accounts SET wallet = COALESCE($2, wallet), cashin_provider = COALESCE($3, cashin_provider),
           providers = COALESCE($4::jsonb, providers), rate_limit = COALESCE($6::jsonb, rate_limit), updated_at = $5 WHERE account_id = $1`,
        [
          event.tenant.accountId,
          c.wallet ?? null,
          c.cashin_provider ?? null,
          c.providers ? JSON.stringify(c.providers) : null,
          event.occurredAt,
          c.rate_limit ? JSON.stringify(c.rate_limit) : null,
        ],
      );
    }
    case AccountEventTypes.webhookSecretRotated:
      return sql(
        `UPDATE accounts SET ${rotatedEnvironmentOf(event.data) === 'sandbox' ? 'sandbox_webhook_secret' : 'webhook_secret'} = $2, updated_at = $3 WHERE account_id = $1`,
        [event.tenant.accountId, event.data.webhook_secret, event.occurredAt],
      );
    case AccountEventTypes.keyIssued: {
      const k = event.data;
      return sql(
        `INSERT INTO api_keys (key_id, key_hash, account_id, environment, read_only, transactions, created_at, name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [k.key_id, k.key_hash, k.account_id, k.environment, k.read_only, k.transactions, event.occurredAt, k.name ?? null],
      );
    }
    case AccountEventTypes.keyRevoked:
      return sql('UPDATE api_keys SET revoked_at = $2 WHERE key_id = $1', [event.data.key_id, event.occurredAt]);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The account's row; `sandbox_webhook_secret` is null until one is issued to an account opened with one shared secret. */
export async function findAccount(
  db: EntityManager,
  accountId: string,
): Promise<(Omit<AccountResponse, 'sandbox_webhook_secret'> & { sandbox_webhook_secret: string | null }) | undefined> {
  const [row] = await db.query(
    'SELECT account_id, name, wallet, cashin_provider, providers, webhook_secret, sandbox_webhook_secret, rate_limit FROM accounts WHERE account_id = $1',
    [accountId],
  );
  if (!row) return undefined;
  return {
    ...row,
    providers: (row.providers as { code: AccountResponse['providers'][number]['code'] }[]).map(({ code }) => ({ code })),
    rate_limit: rateLimitsOf(row),
  };
}

export interface ApiKeyRecord extends ApiKeyIssuedData {
  revoked: boolean;
}

export async function findApiKeyByHash(db: EntityManager, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await db.query(
    'SELECT key_hash, key_id, account_id, environment, read_only, transactions, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE key_hash = $1',
    [keyHash],
  );
  return row;
}

export async function findApiKeyById(
  db: EntityManager,
  keyId: string,
): Promise<{ key_hash: string; account_id: string; environment: Environment } | undefined> {
  const [row] = await db.query('SELECT key_hash, account_id, environment FROM api_keys WHERE key_id = $1', [keyId]);
  return row;
}

/** The account's keys, the newest first, revoked ones included; never their hashes. */
/** A key as its read model holds it (its last use is the request log's: RequestLogReader.lastUse). */
export type StoredApiKeySummary = Omit<ApiKeySummaryResponse, 'last_used_at'>;

export async function listApiKeys(db: EntityManager, accountId: string): Promise<StoredApiKeySummary[]> {
  const rows: Array<Omit<StoredApiKeySummary, 'created_at' | 'revoked_at'> & { created_at: Date; revoked_at: Date | null }> = await db.query(
    'SELECT key_id, environment, read_only, transactions, name, created_at, revoked_at FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, key_id',
    [accountId],
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString(), revoked_at: row.revoked_at?.toISOString() ?? null }));
}

/** Accounts opened when one secret signed both environments that have no sandbox secret yet. */
export async function accountsWithoutSandboxSecret(db: EntityManager): Promise<string[]> {
  const rows: { account_id: string }[] = await db.query('SELECT account_id FROM accounts WHERE sandbox_webhook_secret IS NULL ORDER BY account_id');
  return rows.map((r) => r.account_id);
}
