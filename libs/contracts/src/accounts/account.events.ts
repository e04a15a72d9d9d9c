import { Environment } from '../tenant';
import { CashinProvider, ReceiptProvider } from './account.dto';

export interface ProviderCredentials {
  code: ReceiptProvider;
  /** Sealed (SecretBox, `enc:v1:...`) in every event since session 8; a plain record in older ones. */
  credentials: Record<string, unknown> | string;
}

/**
 * Requests per second each API key of the account may make, per environment (issue #12 §1). Generous by default:
 * one merchant at 1,000 req/s is not throttled; an operator lowers it for an account that misbehaves.
 */
export interface RateLimits {
  production: number;
  sandbox: number;
}
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = { production: 5000, sandbox: 5000 };
export const MAX_RATE_LIMIT = 100_000;

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
  webhook_secret: string;
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
}

/** A new webhook secret (POST /admin/accounts/:id/webhook-secret); the one it replaces signs beside it until `previous_valid_until`. */
export interface WebhookSecretRotatedData {
  webhook_secret: string;
  previous_secret: string;
  previous_valid_until: string;
}

export const AccountEventTypes = {
  opened: 'account.opened',
  changed: 'account.changed',
  webhookSecretRotated: 'account.webhook_secret_rotated',
  keyIssued: 'api_key.issued',
  keyRevoked: 'api_key.revoked',
} as const;
