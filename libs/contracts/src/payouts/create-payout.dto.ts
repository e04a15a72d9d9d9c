import { Type } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsString, Matches, Max, MaxLength, ValidateNested } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT, pixKeyType } from '@pixauto/pix';
import { rule } from '../field-rule';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { IsCpfOrCnpj, IsWebhookUrl, OptionalField } from '../recurrences/recurrence.validators';

// POST /v2/payout/pix and POST /v2/payout (platform.md §3). Decorators run bottom-up: the last one is checked first.

const T = Messages.transactions;

const IsPixKey = rule('isPixKey', (value) => typeof value === 'string' && pixKeyType(value) !== undefined);

/** The receiving account (BCB: ISPB, branch, account number). */
export class PayoutBankAccount {
  @Matches(/^\d{8}$/, { message: T.bankIspbInvalid })
  @IsString({ message: T.bankIspbInvalid })
  @IsDefined({ message: Messages.required('body.bank.ispb') })
  ispb!: string;

  @Matches(/^\d{1,4}$/, { message: T.bankAgencyInvalid })
  @IsString({ message: T.bankAgencyInvalid })
  @IsDefined({ message: Messages.required('body.bank.account_agency') })
  account_agency!: string;

  @Matches(/^\d{1,20}(-[\dXx])?$/, { message: T.bankAccountInvalid })
  @IsString({ message: T.bankAccountInvalid })
  @IsDefined({ message: Messages.required('body.bank.account_number') })
  account_number!: string;
}

export class CreatePayoutRequest {
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

  @MaxLength(100, { message: T.nameInvalid })
  @IsString({ message: T.nameInvalid })
  @IsNotEmpty({ message: T.nameRequired })
  @IsDefined({ message: T.nameRequired })
  name!: string;

  @IsCpfOrCnpj({ message: T.documentInvalid })
  @IsDefined({ message: T.documentRequired })
  document_number!: string;

  @IsPixKey({ message: T.pixKeyInvalid })
  @OptionalField()
  pix_key?: string;

  @ValidateNested({ message: T.bankNotAnObject })
  @Type(() => PayoutBankAccount)
  @IsObject({ message: T.bankNotAnObject })
  @OptionalField()
  bank?: PayoutBankAccount;

  /** Absent or null: no notifications. */
  @IsWebhookUrl({ message: T.webhookInvalid })
  @OptionalField()
  webhook?: string | null;
}
