import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { IsCpfOrCnpj } from '../recurrences/recurrence.validators';
import { HasAtMostTwoDecimals, IsPositiveReais, OnlyWithMechanism } from './limit.validators';

import { LIMIT_MECHANISMS, LIMIT_TYPES, LimitMechanism, LimitType } from './limit.types';

const M = Messages.limits;
/** A daily transaction count; the read model keeps it in a 32-bit integer. */
const MAX_QUANTITY = 2_147_483_647;

/** POST /v2/limits: creates the limit, or replaces the one of the same document and type. */
@JSONSchema({
  description:
    "A customer's limit on cash-in or cash-out, by amount per transaction or by transactions per day. It replaces the whole limit of the same customer and type.",
})
export class SetLimitRequest {
  @JSONSchema({
    description:
      "The customer's CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric: capital letters and digits), without punctuation, check digits validated. For cash-in it is the payer of POST /v2/pix; for cash-out, the beneficiary of a payout.",
  })
  @IsCpfOrCnpj({ message: M.documentInvalidBody })
  @IsDefined({ message: Messages.required('body.document_number') })
  document_number!: string;

  @JSONSchema({
    description:
      '`cashin`: checked when a Pix charge is created (POST /v2/pix). `cashout`: checked when a payout is created (POST /v2/payout/pix and POST /v2/payout). The two are independent.',
  })
  @IsIn(LIMIT_TYPES, { message: M.typeInvalidBody })
  @IsDefined({ message: Messages.required('body.type') })
  type!: LimitType;

  @JSONSchema({
    description:
      '`amount`: caps the value of each transaction. `quantity`: caps the number of transactions per day (Brasília time; the count starts again at midnight).',
  })
  @IsIn(LIMIT_MECHANISMS, { message: M.mechanismInvalid })
  @IsDefined({ message: Messages.required('body.mechanism') })
  mechanism!: LimitMechanism;

  @JSONSchema({
    description:
      'With `mechanism: amount`, and only then (required): the highest amount of one transaction, in reais, positive, at most 2 decimal places. A transaction above it is refused; one at or below it passes.',
  })
  @ValidateIf((o: SetLimitRequest) => o.mechanism === 'amount' || o.amount !== undefined)
  @Max(MAX_PIX_AMOUNT, { message: M.amountTooLarge })
  @HasAtMostTwoDecimals({ message: M.amountDecimals })
  @IsPositiveReais({ message: M.amountPositive })
  @OnlyWithMechanism('amount', { message: M.amountNotForQuantity })
  amount?: number;

  @JSONSchema({
    description:
      "With `mechanism: quantity`, and only then (required): how many transactions the customer may make per day, a positive integer. Once today's count reaches it, the next transaction is refused.",
  })
  @ValidateIf((o: SetLimitRequest) => o.mechanism === 'quantity' || o.quantity !== undefined)
  @Max(MAX_QUANTITY, { message: M.quantityTooLarge })
  @Min(1, { message: M.quantityPositive })
  @IsInt({ message: M.quantityPositive })
  @OnlyWithMechanism('quantity', { message: M.quantityNotForAmount })
  quantity?: number;

  @JSONSchema({ description: 'A note or reason, at most 4096 characters. A POST without it clears the one stored.' })
  @IsOptional()
  @MaxLength(4096, { message: M.detailsTooLong })
  @IsString({ message: M.detailsTooLong })
  details?: string;
}

export const SET_LIMIT_FIELDS = ['document_number', 'type', 'mechanism', 'amount', 'quantity', 'details'] as const;

/** GET /v2/limits. */
export class GetLimitQuery {
  @IsCpfOrCnpj({ message: M.documentInvalidQuery })
  @IsDefined({ message: M.documentInvalidQuery })
  document_number!: string;

  @IsIn(LIMIT_TYPES, { message: M.typeInvalidQuery })
  @IsDefined({ message: M.typeInvalidQuery })
  type!: LimitType;
}

// The limit object (docs/api/limits.md). The JSDoc is what merchants read in the API reference.
/** A customer's limit on cash-in or cash-out. Without one, the customer's transactions are not restricted. */
export interface LimitResponse {
  /** The customer's CPF (11 digits) or CNPJ (14 capital letters and digits), as it was set. */
  document_number: string;
  /** `cashin` (Pix charges the customer pays) or `cashout` (payouts to the customer). */
  type: LimitType;
  /** `amount` (a cap on each transaction's value) or `quantity` (a cap on transactions per day, Brasília time). */
  mechanism: LimitMechanism;
  /** With `mechanism: amount`: the highest amount of one transaction, in reais. Absent otherwise. */
  amount?: number;
  /** With `mechanism: quantity`: how many transactions are allowed per day. Absent otherwise. */
  quantity?: number;
  /** The note or reason given; absent when none was. */
  details?: string;
  /** When the limit was first set, ISO 8601 in UTC. */
  created_at: string;
  /** When the limit last changed, ISO 8601 in UTC (a POST that changes nothing leaves it). */
  updated_at: string;
}
