import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { IsCpfOrCnpj, IsWebhookUrl, OptionalField } from '../recurrences/recurrence.validators';

// POST /v2/pix (platform.md §3). Decorators run bottom-up: the last one is checked first.

const T = Messages.transactions;

export class PixChargePayerRequest {
  @IsCpfOrCnpj({ message: T.payerDocumentInvalid })
  @IsDefined({ message: Messages.required('body.payer.document_number') })
  document_number!: string;

  @MaxLength(100, { message: T.payerNameInvalid })
  @IsString({ message: T.payerNameInvalid })
  @IsNotEmpty({ message: T.payerNameRequired })
  @IsDefined({ message: T.payerNameRequired })
  name!: string;
}

export class CreatePixChargeRequest {
  @MaxLength(35, { message: T.transactionIdTooLong })
  @IsString({ message: T.transactionIdNotAString })
  @IsNotEmpty({ message: T.transactionIdRequired })
  @IsDefined({ message: T.transactionIdRequired })
  transaction_id!: string;

  @Max(MAX_PIX_AMOUNT, { message: T.amountTooLarge })
  @HasAtMostTwoDecimals({ message: T.amountDecimals })
  @IsPositiveReais({ message: T.amountPositive })
  @IsDefined({ message: T.amountRequired })
  amount!: number;

  @ValidateNested({ message: T.payerNotAnObject })
  @Type(() => PixChargePayerRequest)
  @IsObject({ message: T.payerNotAnObject })
  @IsDefined({ message: T.payerRequired })
  payer!: PixChargePayerRequest;

  /** Seconds the code stays payable; default 3600. */
  @Max(86400, { message: T.expiresInInvalid })
  @Min(1, { message: T.expiresInInvalid })
  @IsInt({ message: T.expiresInInvalid })
  @OptionalField()
  expires_in?: number;

  /** Absent or null: no notifications. */
  @IsWebhookUrl({ message: T.webhookInvalid })
  @IsOptional()
  webhook?: string | null;

  /** Shown to the payer (BCB solicitacaoPagador). Absent or null: none. */
  @MaxLength(140, { message: T.descriptionInvalid })
  @IsString({ message: T.descriptionInvalid })
  @IsOptional()
  description?: string | null;
}
