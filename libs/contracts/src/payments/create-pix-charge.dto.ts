import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { IsCpfOrCnpj, IsWebhookUrl, OptionalField } from '../recurrences/recurrence.validators';
import { TransactionAmountField, TransactionIdField } from '../transaction-fields';

// POST /v2/pix. Decorators run bottom-up: the last one is checked first.

const T = Messages.transactions;

@JSONSchema({ description: 'The payer. A cash-in limit set for their CPF or CNPJ applies to the charge.' })
export class PixChargePayerRequest {
  @JSONSchema({
    description:
      "The payer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation; the check digits are validated.",
  })
  @IsCpfOrCnpj({ message: T.payerDocumentInvalid })
  @IsDefined({ message: Messages.required('body.payer.document_number') })
  document_number!: string;

  @JSONSchema({ description: "The payer's name, at most 100 characters." })
  @MaxLength(100, { message: T.payerNameInvalid })
  @IsString({ message: T.payerNameInvalid })
  @IsNotEmpty({ message: T.payerNameRequired })
  @IsDefined({ message: T.payerNameRequired })
  name!: string;
}

@JSONSchema({ description: 'A new Pix charge (cash-in) the payer pays by QR code or Pix copy-and-paste.' })
export class CreatePixChargeRequest {
  @TransactionIdField('Your identifier of the charge, unique in your account (per environment), at most 35 characters.')
  transaction_id!: string;

  @TransactionAmountField(
    'Amount to receive, in reais (BRL): positive, at most 2 decimal places, at most 9999999999.99. A cash-in limit set for the payer applies.',
  )
  amount!: number;

  @JSONSchema({ description: 'Who pays.' })
  @ValidateNested({ message: T.payerNotAnObject })
  @Type(() => PixChargePayerRequest)
  @IsObject({ message: T.payerNotAnObject })
  @IsDefined({ message: T.payerRequired })
  payer!: PixChargePayerRequest;

  @JSONSchema({ description: 'Seconds the code stays payable: 1 to 86400, default 3600. Unpaid by then, the charge becomes EXPIRED.' })
  @Max(86400, { message: T.expiresInInvalid })
  @Min(1, { message: T.expiresInInvalid })
  @IsInt({ message: T.expiresInInvalid })
  @OptionalField()
  expires_in?: number;

  @JSONSchema({
    description: 'An http(s) URL of at most 255 characters that receives the events of this charge and of its refunds. Absent or null: no notifications.',
  })
  @IsWebhookUrl({ message: T.webhookInvalid })
  @IsOptional()
  webhook?: string | null;

  // Shown to the payer (BCB solicitacaoPagador). Absent or null: none.
  @JSONSchema({ description: 'A message shown to the payer in their banking app, at most 140 characters. Absent or null: none.' })
  @MaxLength(140, { message: T.descriptionInvalid })
  @IsString({ message: T.descriptionInvalid })
  @IsOptional()
  description?: string | null;
}
