import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AccountProfile,
  AccountResponse,
  DEFAULT_RATE_LIMITS,
  Environment,
  ApiKeyResponse,
  ChangeAccountRequest,
  IssueApiKeyRequest,
  OpenAccountRequest,
  ProviderCredentials,
  Tenant,
  Topics,
  WebhookSecretRotatedResponse,
} from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { newWebhookSecret, SecretBox } from '@pixauto/secrets';
import { Clock } from '@pixauto/pix';
import { account, ACCOUNT_STREAM, accountStreamId } from './account';
import { apiKey, API_KEY_STREAM, apiKeyStreamId, hashApiKey, newApiKey } from './api-key';
import { AccountProfiles } from './account-profiles';
import { ApiKeyDirectory } from './api-key-directory';
import { AuditActor, AuditRecord, auditStatement, OPERATOR } from './audit-log';
import { accountsWithoutSandboxSecret, findAccount, findApiKeyById, listApiKeys, projectAccount, StoredApiKeySummary } from './read-model/accounts.projection';

/** Without providers, an account gets both receipt banks with the sandbox banks' working credentials. */
const DEFAULT_PROVIDERS: ProviderCredentials[] = [
  { code: 'PROVIDER_A', credentials: { client_id: 'sandbox', client_secret: 'sandbox' } },
  { code: 'PROVIDER_B', credentials: { client_id: 'sandbox', client_secret: 'sandbox' } },
];

/** Standard Webhooks' secret format: `whsec_` and the base64 of the key (24 random bytes). */

/** What the gateway and the services read of an account on every request (AccountProfiles). */
export const profileOf = (account: AccountResponse): AccountProfile => ({
  name: account.name,
  wallet: account.wallet,
  cashin_provider: account.cashin_provider,
  rate_limit: account.rate_limit,
});

/** Account-wide events are recorded under the account's production tenant: an account has no sandbox of its own. */
const home = (accountId: string): Tenant => ({ accountId, environment: 'production' });

/** The operator's use cases: open and change accounts, issue and revoke keys. */
export class AccountsAdmin {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly directory: ApiKeyDirectory,
    private readonly profiles: AccountProfiles,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    /** Draws a new key; a test names the key it presented before it existed. */
    private readonly drawKey: (environment: Environment) => { keyId: string; apiKey: string } = newApiKey,
  ) {}

  /** Credentials and secrets leave this class sealed: events, rows and Kafka never see them in clear. */
  private sealed(providers: ProviderCredentials[]): ProviderCredentials[] {
    return providers.map(({ code, credentials }) => ({ code, credentials: this.secrets.sealJson(credentials) }));
  }

  async open(request: OpenAccountRequest): Promise<AccountResponse> {
    const accountId = randomUUID();
    const outcome = await this.eventStore.handle(
      account,
      {
        type: 'OpenAccount',
        data: {
          account_id: accountId,
          name: request.name,
          wallet: request.wallet ?? true,
          cashin_provider: request.cashin_provider ?? 'PROVIDER_A',
          providers: this.sealed(request.providers ?? DEFAULT_PROVIDERS),
          // One secret per environment: a sandbox webhook is never signed with what a production receiver checks.
          webhook_secret: this.secrets.seal(newWebhookSecret()),
          sandbox_webhook_secret: this.secrets.seal(newWebhookSecret()),
          rate_limit: { ...DEFAULT_RATE_LIMITS, ...request.rate_limit },
        },
      },
      this.context(accountStreamId(accountId), ACCOUNT_STREAM, home(accountId)),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    return this.published(accountId);
  }

  async change(accountId: string, request: ChangeAccountRequest): Promise<AccountResponse> {
    const outcome = await this.eventStore.handle(
      account,
      {
        type: 'ChangeAccount',
        data: {
          ...(request.wallet !== undefined && { wallet: request.wallet }),
          ...(request.cashin_provider !== undefined && { cashin_provider: request.cashin_provider }),
          ...(request.providers !== undefined && { providers: this.sealed(request.providers) }),
          ...(request.rate_limit !== undefined && { rate_limit: { ...request.rate_limit } }),
        },
      },
      this.context(accountStreamId(accountId), ACCOUNT_STREAM, home(accountId)),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    return this.published(accountId);
  }

  /** A new signing secret for one environment; its replaced one keeps signing beside it for 24 hours. The other environment's is unchanged. */
  async rotateWebhookSecret(accountId: string, environment: Environment, actor: AuditActor = OPERATOR): Promise<WebhookSecretRotatedResponse> {
    const outcome = await this.eventStore.handle(
      account,
      { type: 'RotateWebhookSecret', environment, webhook_secret: this.secrets.seal(newWebhookSecret()), at: this.clock.now() },
      this.context(accountStreamId(accountId), ACCOUNT_STREAM, home(accountId), {
        accountId,
        environment,
        actor,
        action: 'webhook_secret.rotated',
        object: 'webhook_secret',
      }),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    const rotated = outcome.events[0].data as { webhook_secret: string; previous_valid_until: string | null };
    return {
      account_id: accountId,
      environment,
      webhook_secret: this.secrets.open(rotated.webhook_secret),
      previous_secret_valid_until: rotated.previous_valid_until,
    };
  }

  /**
   * Accounts opened when one secret signed both environments keep it as their production secret and are issued a
   * sandbox secret of their own (docs/decisions/webhooks.md "A secret per environment"). Run at every start; an
   * account that has one records nothing, so replicas starting together issue one each at most once.
   */
  async issueMissingSandboxSecrets(): Promise<number> {
    let issued = 0;
    for (const accountId of await accountsWithoutSandboxSecret(this.dataSource.manager)) {
      if (await this.issueSandboxSecret(accountId)) issued += 1;
    }
    return issued;
  }

  private async issueSandboxSecret(accountId: string): Promise<boolean> {
    const outcome = await this.eventStore.handle(
      account,
      { type: 'IssueSandboxWebhookSecret', webhook_secret: this.secrets.seal(newWebhookSecret()) },
      this.context(accountStreamId(accountId), ACCOUNT_STREAM, home(accountId)),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    return outcome.events.length > 0;
  }

  /** The account as stored, its profile written through to where the gateway reads it. */
  private async published(accountId: string): Promise<AccountResponse> {
    const account = await this.get(accountId);
    await this.profiles.changed(accountId, profileOf(account));
    return account;
  }

  async get(accountId: string): Promise<AccountResponse> {
    const account = (await findAccount(this.dataSource.manager, accountId)) ?? refuse(notFound(Messages.admin.accountNotFound));
    // An account read before the start's issuance reached it gets its sandbox secret now.
    if (account.sandbox_webhook_secret === null) {
      await this.issueSandboxSecret(accountId);
      return this.get(accountId);
    }
    return {
      ...account,
      webhook_secret: this.secrets.open(account.webhook_secret),
      sandbox_webhook_secret: this.secrets.open(account.sandbox_webhook_secret),
    };
  }

  async issueKey(accountId: string, request: IssueApiKeyRequest, actor: AuditActor = OPERATOR): Promise<ApiKeyResponse> {
    await this.get(accountId);
    const { keyId, apiKey: key } = this.drawKey(request.environment);
    const name = request.name?.trim() || undefined;
    const grant = {
      key_id: keyId,
      account_id: accountId,
      environment: request.environment,
      read_only: request.read_only ?? false,
      transactions: request.transactions ?? true,
      ...(name !== undefined && { name }),
    };
    const outcome = await this.eventStore.handle(
      apiKey,
      { type: 'IssueApiKey', data: { ...grant, key_hash: hashApiKey(key) } },
      this.context(
        apiKeyStreamId(keyId),
        API_KEY_STREAM,
        { accountId, environment: request.environment },
        {
          accountId,
          environment: request.environment,
          actor,
          action: 'api_key.created',
          object: keyId,
          detail: { read_only: grant.read_only, transactions: grant.transactions, ...(name !== undefined && { name }) },
        },
      ),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    await this.directory.issued(hashApiKey(key), {
      keyId,
      accountId,
      environment: grant.environment,
      readOnly: grant.read_only,
      transactions: grant.transactions,
    });
    return {
      key_id: keyId,
      api_key: key,
      environment: grant.environment,
      read_only: grant.read_only,
      transactions: grant.transactions,
      name: name ?? null,
    };
  }

  async listKeys(accountId: string): Promise<StoredApiKeySummary[]> {
    await this.get(accountId);
    return listApiKeys(this.dataSource.manager, accountId);
  }

  async revokeKey(keyId: string, actor: AuditActor = OPERATOR): Promise<void> {
    const key = await findApiKeyById(this.dataSource.manager, keyId);
    if (!key) return refuse(notFound(Messages.admin.apiKeyNotFound));
    const tenant: Tenant = { accountId: key.account_id, environment: key.environment };
    // Fail-safe order: the key stops working before the revocation is recorded, so no failure in between
    // can leave a revoked key accepted (a failed record is retried by the operator; the key stays refused).
    await this.directory.revoke(key.key_hash);
    const outcome = await this.eventStore.handle(
      apiKey,
      { type: 'RevokeApiKey' },
      this.context(apiKeyStreamId(keyId), API_KEY_STREAM, tenant, {
        accountId: key.account_id,
        environment: key.environment,
        actor,
        action: 'api_key.revoked',
        object: keyId,
      }),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
  }

  /** A command's context; with `audit`, its audit log entry is written in the same statement as its events, only when it appends any. */
  private context(streamId: string, streamType: string, tenant: Tenant, audit?: Omit<AuditRecord, 'at'>) {
    const now = this.clock.now();
    const project: typeof projectAccount = audit
      ? (events, state) => [...projectAccount(events, state), ...(events.length > 0 ? [auditStatement({ ...audit, at: now })] : [])]
      : projectAccount;
    return { streamId, streamType, tenant, now, topic: Topics.accounts.name, project };
  }
}
