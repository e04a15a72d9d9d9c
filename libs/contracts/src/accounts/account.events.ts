import { Environment } from '../tenant';
import { CashinProvider, RateLimits, ReceiptProvider } from './account.types';

export interface ProviderCredentials {
  code: ReceiptProvider;
  /** Sealed (SecretBox, `enc:v1:...`); a plain record in events written before credentials were sealed. */
  credentials: Record<string, unknown> | string;
}

/**
 * Account events on Topics.accounts. Their banking credentials and webhook secrets are sealed (AES-256-GCM,
 * docs/decisions/secrets.md): only the processes holding SECRETS_KEYS can read them.
 */
export interface AccountOpenedData {
  account_id: string;
  name: string;
  wallet: boolean;
  cashin_provider: CashinProvider;
  providers: ProviderCredentials[];
  /** The production signing secret (sealed). */
  webhook_secret: string;
  /**
   * The sandbox signing secret (sealed). Absent on accounts opened when one secret signed both environments: that
   * secret stays production's, and the sandbox gets its own (docs/decisions/webhooks.md "Secret per environment").
   */
  sandbox_webhook_secret?: string;
  /** Absent on accounts opened before rate limits: DEFAULT_RATE_LIMITS. */
  rate_limit?: RateLimits;
}

export interface AccountChangedData {
  wallet?: boolean;
  cashin_provider?: CashinProvider;
  providers?: ProviderCredentials[];
  /** Both environments' limits as they are after the change. */
  rate_limit?: RateLimits;
}

/** Only the key's hash is ever stored or published; the key itself is shown once to the operator. */
export interface ApiKeyIssuedData {
  key_id: string;
  account_id: string;
  key_hash: string;
  environment: Environment;
  read_only: boolean;
  transactions: boolean;
  /** The name given at issue; absent without one (and on keys issued before keys had names). */
  name?: string;
}

/**
 * A new webhook secret for one environment (POST /admin/accounts/:id/webhook-secret); the one it replaces signs beside
 * it until `previous_valid_until`. `environment` is absent on rotations recorded when one secret signed both
 * environments: that secret is production's. A sandbox secret issued to such an account replaces nothing (nulls).
 */
export interface WebhookSecretRotatedData {
  environment?: Environment;
  webhook_secret: string;
  previous_secret: string | null;
  previous_valid_until: string | null;
}

/** The environment whose secret a rotation changed: production for those recorded before each had its own. */
export const rotatedEnvironmentOf = (data: Pick<WebhookSecretRotatedData, 'environment'>): Environment => data.environment ?? 'production';

export const AccountEventTypes = {
  opened: 'account.opened',
  changed: 'account.changed',
  webhookSecretRotated: 'account.webhook_secret_rotated',
  keyIssued: 'api_key.issued',
  keyRevoked: 'api_key.revoked',
} as const;
