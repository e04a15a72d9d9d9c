import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { ENVIRONMENTS, Environment } from '../tenant';
import { MAX_RATE_LIMIT, RateLimits } from './account.events';

// The operator API (platform.md §2). Not part of the merchant contract, but refused in the same shapes.

export const CASHIN_PROVIDERS = ['PROVIDER_A', 'PROVIDER_B', 'PROVIDER_C'] as const;
export type CashinProvider = (typeof CASHIN_PROVIDERS)[number];
/** The banks whose refund receipts the platform can fetch (service-api.md 4.12). */
export const RECEIPT_PROVIDERS = ['PROVIDER_A', 'PROVIDER_B'] as const;
export type ReceiptProvider = (typeof RECEIPT_PROVIDERS)[number];

const A = Messages.admin;

export class ProviderCredentialsDto {
  @IsIn(RECEIPT_PROVIDERS, { message: A.providers })
  code!: ReceiptProvider;

  @IsObject({ message: A.providers })
  credentials!: Record<string, unknown>;
}

/** Either environment's limit, or both; the other keeps its value. */
export class RateLimitsDto {
  @IsOptional()
  @Max(MAX_RATE_LIMIT, { message: A.rateLimit })
  @Min(1, { message: A.rateLimit })
  @IsInt({ message: A.rateLimit })
  production?: number;

  @IsOptional()
  @Max(MAX_RATE_LIMIT, { message: A.rateLimit })
  @Min(1, { message: A.rateLimit })
  @IsInt({ message: A.rateLimit })
  sandbox?: number;
}

/** What an operator can set on an account, at opening or later. */
export class ChangeAccountRequest {
  @IsOptional()
  @IsBoolean({ message: A.walletBoolean })
  wallet?: boolean;

  @IsOptional()
  @IsIn(CASHIN_PROVIDERS, { message: A.cashinProvider })
  cashin_provider?: CashinProvider;

  @IsOptional()
  @ValidateNested({ each: true, message: A.providers })
  @Type(() => ProviderCredentialsDto)
  @ArrayUnique((provider: ProviderCredentialsDto) => provider?.code, { message: A.providers })
  @ArrayMaxSize(RECEIPT_PROVIDERS.length, { message: A.providers })
  @IsArray({ message: A.providers })
  providers?: ProviderCredentialsDto[];

  @IsOptional()
  @ValidateNested({ message: A.rateLimit })
  @Type(() => RateLimitsDto)
  @IsObject({ message: A.rateLimit })
  rate_limit?: RateLimitsDto;
}

export class OpenAccountRequest extends ChangeAccountRequest {
  @MaxLength(140, { message: A.nameRequired })
  @IsNotEmpty({ message: A.nameRequired })
  @IsString({ message: A.nameRequired })
  name!: string;
}
export const OPEN_ACCOUNT_FIELDS = ['name', 'wallet', 'cashin_provider', 'providers', 'rate_limit'] as const;

export const CHANGE_ACCOUNT_FIELDS = ['wallet', 'cashin_provider', 'providers', 'rate_limit'] as const;

export class IssueApiKeyRequest {
  @IsIn(ENVIRONMENTS, { message: A.environment })
  @IsDefined({ message: A.environment })
  environment!: Environment;

  @IsOptional()
  @IsBoolean({ message: A.readOnlyBoolean })
  read_only?: boolean;

  @IsOptional()
  @IsBoolean({ message: A.transactionsBoolean })
  transactions?: boolean;
}
export const ISSUE_API_KEY_FIELDS = ['environment', 'read_only', 'transactions'] as const;

export interface AccountResponse {
  account_id: string;
  name: string;
  wallet: boolean;
  cashin_provider: CashinProvider;
  providers: { code: ReceiptProvider }[];
  webhook_secret: string;
  rate_limit: RateLimits;
}

export interface ApiKeyResponse {
  key_id: string;
  api_key: string;
  environment: Environment;
  read_only: boolean;
  transactions: boolean;
}
