import { Type } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { pixKeyType } from '@pixauto/pix';
import { rule } from '../field-rule';
import { IsCpfOrCnpj, IsWebhookUrl, OptionalField } from '../recurrences/recurrence.validators';
import { TransactionAmountField, TransactionIdField } from '../transaction-fields';

// POST /v2/payout/pix and POST /v2/payout. Decorators run bottom-up: the last one is checked first.

const T = Messages.transactions;

const IsPixKey = rule('isPixKey', (value) => typeof value === 'string' && pixKeyType(value) !== undefined);

/** The receiving account (BCB: ISPB, branch, account number). */
@JSONSchema({ description: "The beneficiary's bank account." })
export class PayoutBankAccount {
  @JSONSchema({ description: "The ISPB of the beneficiary's institution: its 8-digit central bank code (not the 3-digit bank number)." })
  @Matches(/^\d{8}$/, { message: T.bankIspbInvalid })
  @IsString({ message: T.bankIspbInvalid })
  @IsDefined({ message: Messages.required('body.bank.ispb') })
  ispb!: string;

  @JSONSchema({ description: 'The branch (agência): 1 to 4 digits, without a check digit.' })
  @Matches(/^\d{1,4}$/, { message: T.bankAgencyInvalid })
  @IsString({ message: T.bankAgencyInvalid })
  @IsDefined({ message: Messages.required('body.bank.account_agency') })
  account_agency!: string;

  @JSONSchema({ description: 'The account number: 1 to 20 digits, optionally followed by a hyphen and a check digit (e.g. 123456-7).' })
  @Matches(/^\d{1,20}(-[\dXx])?$/, { message: T.bankAccountInvalid })
  @IsString({ message: T.bankAccountInvalid })
  @IsDefined({ message: Messages.required('body.bank.account_number') })
  account_number!: string;
}

@JSONSchema({ description: 'A payout (cash-out): money sent by Pix to a Pix key or to a bank account.' })
export class CreatePayoutRequest {
  @TransactionIdField('Your identifier of the payout, unique in your account (per environment), at most 35 characters.')
  transaction_id!: string;

  @TransactionAmountField(
    'Amount to pay, in reais (BRL): positive, at most 2 decimal places, at most 9999999999.99. A cash-out limit set for the beneficiary applies.',
  )
  amount!: number;

  @JSONSchema({ description: "The beneficiary's name, at most 100 characters." })
  @MaxLength(100, { message: T.nameInvalid })
  @IsString({ message: T.nameInvalid })
  @IsNotEmpty({ message: T.nameRequired })
  @IsDefined({ message: T.nameRequired })
  name!: string;

  @JSONSchema({
    description:
      "The beneficiary's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation; the check digits are validated. A cash-out limit set for this document applies.",
  })
  @IsCpfOrCnpj({ message: T.documentInvalid })
  @IsDefined({ message: T.documentRequired })
  document_number!: string;

  @JSONSchema({
    description:
      "The beneficiary's Pix key: a CPF, a CNPJ, an email address, a +55 phone number or a random key (EVP). POST /v2/payout/pix takes this or `bank`, not both; POST /v2/payout does not take it.",
  })
  @IsPixKey({ message: T.pixKeyInvalid })
  @OptionalField()
  pix_key?: string;

  @JSONSchema({ description: "The beneficiary's bank account. Required on POST /v2/payout; on POST /v2/payout/pix, send this or `pix_key`, not both." })
  @ValidateNested({ message: T.bankNotAnObject })
  @Type(() => PayoutBankAccount)
  @IsObject({ message: T.bankNotAnObject })
  @OptionalField()
  bank?: PayoutBankAccount;

  @JSONSchema({
    description:
      "An http(s) URL of at most 255 characters that receives the payout's events (creation, each status change, returns). Absent or null: no notifications.",
  })
  @IsWebhookUrl({ message: T.webhookInvalid })
  @OptionalField()
  webhook?: string | null;
}
