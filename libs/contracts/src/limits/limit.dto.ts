import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsCpf, IsPositiveReais, OnlyWithMechanism } from './limit.validators';

import { LIMIT_MECHANISMS, LIMIT_TYPES, LimitMechanism, LimitType } from './limit.types';

const M = Messages.limits;
/** A daily transaction count; the read model keeps it in a 32-bit integer. */
const MAX_QUANTITY = 2_147_483_647;

/** POST /v2/limits (service-api.md 4.13): creates the limit, or replaces the one of the same document and type. */
export class SetLimitRequest {
  @IsCpf({ message: M.documentInvalidBody })
  @IsDefined({ message: Messages.required('body.document_number') })
  document_number!: string;

  @IsIn(LIMIT_TYPES, { message: M.typeInvalidBody })
  @IsDefined({ message: Messages.required('body.type') })
  type!: LimitType;

  @IsIn(LIMIT_MECHANISMS, { message: M.mechanismInvalid })
  @IsDefined({ message: Messages.required('body.mechanism') })
  mechanism!: LimitMechanism;

  @ValidateIf((o: SetLimitRequest) => o.mechanism === 'amount' || o.amount !== undefined)
  @Max(MAX_PIX_AMOUNT, { message: M.amountTooLarge })
  @HasAtMostTwoDecimals({ message: M.amountDecimals })
  @IsPositiveReais({ message: M.amountPositive })
  @OnlyWithMechanism('amount', { message: M.amountNotForQuantity })
  amount?: number;

  @ValidateIf((o: SetLimitRequest) => o.mechanism === 'quantity' || o.quantity !== undefined)
  @Max(MAX_QUANTITY, { message: M.quantityTooLarge })
  @Min(1, { message: M.quantityPositive })
  @IsInt({ message: M.quantityPositive })
  @OnlyWithMechanism('quantity', { message: M.quantityNotForAmount })
  quantity?: number;

  @IsOptional()
  @MaxLength(4096, { message: M.detailsTooLong })
  @IsString({ message: M.detailsTooLong })
  details?: string;
}

export const SET_LIMIT_FIELDS = ['document_number', 'type', 'mechanism', 'amount', 'quantity', 'details'] as const;

/** GET /v2/limits (service-api.md 4.14). */
export class GetLimitQuery {
  @IsCpf({ message: M.documentInvalidQuery })
  @IsDefined({ message: M.documentInvalidQuery })
  document_number!: string;

  @IsIn(LIMIT_TYPES, { message: M.typeInvalidQuery })
  @IsDefined({ message: M.typeInvalidQuery })
  type!: LimitType;
}

/** The limit object of service-api.md 2.5. */
export interface LimitResponse {
  document_number: string;
  type: LimitType;
  mechanism: LimitMechanism;
  amount?: number;
  quantity?: number;
  details?: string;
  created_at: string;
  updated_at: string;
}
