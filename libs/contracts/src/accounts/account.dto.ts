import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { ENVIRONMENTS, Environment } from '../tenant';
import { CASHIN_PROVIDERS, CashinProvider, MAX_RATE_LIMIT, RateLimits, RECEIPT_PROVIDERS, ReceiptProvider } from './account.types';

// The operator API (docs/operations.md#the-operator-command-line). Not part of the merchant contract, but refused in the same shapes.

const A = Messages.admin;

@JSONSchema({ description: "A bank enabled for the account's receipts, with the account's own credentials at that bank." })
export class ProviderCredentialsDto {
  @JSONSchema({ description: 'The bank: PROVIDER_A or PROVIDER_B.' })
  @IsIn(RECEIPT_PROVIDERS, { message: A.providers })
  code!: ReceiptProvider;

  @JSONSchema({
    description:
      'The account\'s credentials at that bank, as its adapter expects them (the sandbox banks take `{"client_id": "...", "client_secret": "..."}` and refuse a secret of `"invalid"`). Stored encrypted, never shown.',
  })
  @IsObject({ message: A.providers })
  credentials!: Record<string, unknown>;
}

/** Either environment's limit, or both; the other keeps its value. */
@JSONSchema({ description: 'Requests per second each API key of the account may make, per environment; an environment left out keeps its limit.' })
export class RateLimitsDto {
  @JSONSchema({ description: 'Requests per second for each production key: an integer from 1 to 100000.' })
  @IsOptional()
  @Max(MAX_RATE_LIMIT, { message: A.rateLimit })
  @Min(1, { message: A.rateLimit })
  @IsInt({ message: A.rateLimit })
  production?: number;

  @JSONSchema({ description: 'Requests per second for each sandbox key: an integer from 1 to 100000.' })
  @IsOptional()
  @Max(MAX_RATE_LIMIT, { message: A.rateLimit })
  @Min(1, { message: A.rateLimit })
  @IsInt({ message: A.rateLimit })
  sandbox?: number;
}

/** What an operator can set on an account, at opening or later. */
@JSONSchema({ description: 'The settings to change; those left out keep their values.' })
export class ChangeAccountRequest {
  @JSONSchema({ description: 'Whether the account has a Pix Automático wallet: without one, creating a recurrence is refused. Default true at opening.' })
  @IsOptional()
  @IsBoolean({ message: A.walletBoolean })
  wallet?: boolean;

  @JSONSchema({
    description:
      "The bank that receives the account's Pix charges and makes its payouts: PROVIDER_A (the default at opening), PROVIDER_B or PROVIDER_C. Applies to charges and payouts created afterwards.",
  })
  @IsOptional()
  @IsIn(CASHIN_PROVIDERS, { message: A.cashinProvider })
  cashin_provider?: CashinProvider;

  @JSONSchema({
    description:
      'The banks enabled for receipts, each with its credentials, at most one entry per bank; replaces the whole list. Absent at opening: PROVIDER_A and PROVIDER_B, with working sandbox credentials.',
  })
  @IsOptional()
  @ValidateNested({ each: true, message: A.providers })
  @Type(() => ProviderCredentialsDto)
  @ArrayUnique((provider: ProviderCredentialsDto) => provider?.code, { message: A.providers })
  @ArrayMaxSize(RECEIPT_PROVIDERS.length, { message: A.providers })
  @IsArray({ message: A.providers })
  providers?: ProviderCredentialsDto[];

  @JSONSchema({ description: 'Requests per second each API key may make, per environment (default 5000 in each). Takes effect on the next request.' })
  @IsOptional()
  @ValidateNested({ message: A.rateLimit })
  @Type(() => RateLimitsDto)
  @IsObject({ message: A.rateLimit })
  rate_limit?: RateLimitsDto;
}

@JSONSchema({ description: 'A new merchant account: its name, and optionally the settings it can also change later.' })
export class OpenAccountRequest extends ChangeAccountRequest {
  @JSONSchema({ description: "The merchant's name, 1 to 140 characters. Pix codes show it to payers (without accents, at most 25 characters)." })
  @MaxLength(140, { message: A.nameRequired })
  @IsNotEmpty({ message: A.nameRequired })
  @IsString({ message: A.nameRequired })
  name!: string;
}
export const OPEN_ACCOUNT_FIELDS = ['name', 'wallet', 'cashin_provider', 'providers', 'rate_limit'] as const;

export const CHANGE_ACCOUNT_FIELDS = ['wallet', 'cashin_provider', 'providers', 'rate_limit'] as const;

@JSONSchema({ description: 'A new API key for the account.' })
export class IssueApiKeyRequest {
  @JSONSchema({ description: 'Where the key works: `production` or `sandbox`. A key is refused (401) on the other environment.' })
  @IsIn(ENVIRONMENTS, { message: A.environment })
  @IsDefined({ message: A.environment })
  environment!: Environment;

  @JSONSchema({ description: 'true: the key may only read; every write answers 403. Default false.' })
  @IsOptional()
  @IsBoolean({ message: A.readOnlyBoolean })
  read_only?: boolean;

  @JSONSchema({ description: 'false: the key may not read receipts (of refunds, payouts and returned payouts: 403). Default true.' })
  @IsOptional()
  @IsBoolean({ message: A.transactionsBoolean })
  transactions?: boolean;

  @JSONSchema({
    description: 'A name for the key, 1 to 100 characters, so that people tell keys apart (`Billing backend`); listed with the key. Default: none.',
  })
  @IsOptional()
  @MaxLength(100, { message: A.apiKeyName })
  @IsNotEmpty({ message: A.apiKeyName })
  @IsString({ message: A.apiKeyName })
  name?: string;
}
export const ISSUE_API_KEY_FIELDS = ['environment', 'read_only', 'transactions', 'name'] as const;

/** A merchant account, as the operator sees it. */
export interface AccountResponse {
  /** Unique identifier of the account. */
  account_id: string;
  /** The merchant's name. */
  name: string;
  /** Whether the account has a Pix Automático wallet (needed to create recurrences). */
  wallet: boolean;
  /** The bank that receives the account's Pix charges and makes its payouts. */
  cashin_provider: CashinProvider;
  /** The banks enabled for receipts; their credentials are never shown. */
  providers: {
    /** The bank. */
    code: ReceiptProvider;
  }[];
  /** The secret that signs the account's production webhooks (Standard Webhooks, `whsec_...`): give it to the merchant to verify each production request's `webhook-signature`. It never signs a sandbox webhook. */
  webhook_secret: string;
  /** The secret that signs the account's sandbox webhooks (`whsec_...`), never a production one: the merchant keeps it apart from the production secret, so a sandbox webhook cannot pass a production receiver's check. */
  sandbox_webhook_secret: string;
  /** Requests per second each API key of the account may make, per environment. */
  rate_limit: RateLimits;
}

/** A new API key. */
export interface ApiKeyResponse {
  /** Identifier of the key, to revoke it with DELETE /admin/api-keys/{key_id}. */
  key_id: string;
  /** The key itself (`pix_live_...` for production, `pix_test_...` for sandbox), sent as the Authorization header. Shown only in this answer: only a hash of it is kept. */
  api_key: string;
  /** Where the key works. */
  environment: Environment;
  /** true: the key may only read. */
  read_only: boolean;
  /** false: the key may not read receipts (of refunds, payouts and returned payouts). */
  transactions: boolean;
  /** The key's name, as given when it was issued; null without one. */
  name: string | null;
}

/** An API key of the account as listed: what it may do and when it was issued and revoked, never the key itself. */
export interface ApiKeySummaryResponse {
  /** Identifier of the key, to revoke it with DELETE /admin/api-keys/{key_id}. */
  key_id: string;
  /** Where the key works. */
  environment: Environment;
  /** true: the key may only read. */
  read_only: boolean;
  /** false: the key may not read receipts (of refunds, payouts and returned payouts). */
  transactions: boolean;
  /** The key's name, as given when it was issued; null without one. */
  name: string | null;
  /** When the key was issued, ISO 8601 in UTC. */
  created_at: string;
  /** When the key was revoked, ISO 8601 in UTC; null while it works. */
  revoked_at: string | null;
  /** When a request with the key last reached the API (its request log line), ISO 8601 in UTC; null when none since `last_used_since`. */
  last_used_at: string | null;
}

/** Every API key of an account, the newest first, revoked ones included. */
export interface ApiKeyListResponse {
  /** The account's keys, the newest first. */
  api_keys: ApiKeySummaryResponse[];
  /** How far back `last_used_at` looks (the request log's retention), ISO 8601 in UTC: a key with `last_used_at` null made no request since. */
  last_used_since: string;
}
