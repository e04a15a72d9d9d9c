import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { MAX_RECORD_ID } from '../record-id';
import { PERIODICITIES, Periodicity, RETRY_POLICIES, RetryPolicy } from './recurrence.types';
import { HasDateFormat, IsAfterDate, IsAfterToday, IsCpfOrCnpj, IsExistingDate, IsWebhookUrl, OptionalField } from './recurrence.validators';

// POST /v2/automatic-pix/recurrences. Decorators run bottom-up: the last one is checked first.
// @JSONSchema descriptions are what merchants read in the API reference.

const R = Messages.recurrences;
const required = (field: string) => ({ message: Messages.required(field) });

@JSONSchema({ description: "The payer's address. Optional as a whole; when sent, all four fields are required." })
export class DebtorAddress {
  @JSONSchema({ description: 'Street and number, at most 200 characters.' })
  @MaxLength(200, { message: R.streetTooLong })
  @IsString({ message: R.notAString('body.debtor.address.street') })
  @IsNotEmpty(required('body.debtor.address.street'))
  @IsDefined(required('body.debtor.address.street'))
  street!: string;

  @JSONSchema({ description: 'City, at most 200 characters.' })
  @MaxLength(200, { message: R.cityTooLong })
  @IsString({ message: R.notAString('body.debtor.address.city') })
  @IsNotEmpty(required('body.debtor.address.city'))
  @IsDefined(required('body.debtor.address.city'))
  city!: string;

  @JSONSchema({ description: 'State, as its 2 upper-case letters (e.g. SP).' })
  @Matches(/^[A-Z]{2}$/, { message: R.stateInvalid })
  @IsDefined(required('body.debtor.address.state'))
  state!: string;

  @JSONSchema({ description: 'Postal code (CEP): exactly 8 digits, no hyphen.' })
  @Matches(/^\d{8}$/, { message: R.zipCodeInvalid })
  @IsDefined(required('body.debtor.address.zip_code'))
  zip_code!: string;
}

@JSONSchema({ description: 'The payer, fixed for the life of the recurrence (only the name can change later, with `debtor_name`).' })
export class RecurrenceDebtor {
  @JSONSchema({
    description:
      "The payer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation; the check digits are validated.",
  })
  @IsCpfOrCnpj({ message: R.documentInvalid })
  @IsDefined(required('body.debtor.document_number'))
  document_number!: string;

  @JSONSchema({ description: "The payer's name, at most 100 characters." })
  @MaxLength(100, { message: R.debtorNameTooLong })
  @IsString({ message: R.notAString('body.debtor.name') })
  @IsNotEmpty(required('body.debtor.name'))
  @IsDefined(required('body.debtor.name'))
  name!: string;

  @JSONSchema({ description: "The payer's email address, at most 140 characters. Kept with the recurrence and its charges, not shown in answers." })
  @MaxLength(140, { message: R.emailInvalid })
  @IsEmail({}, { message: R.emailInvalid })
  @OptionalField()
  email?: string;

  @JSONSchema({ description: "The payer's address; optional, but all four of its fields are required when it is sent. Kept, not shown in answers." })
  @ValidateNested({ message: R.notAnObject('body.debtor.address') })
  @Type(() => DebtorAddress)
  @IsObject({ message: R.notAnObject('body.debtor.address') })
  @OptionalField()
  address?: DebtorAddress;
}

@JSONSchema({ description: 'When the cycles fall due: from `start_date`, every `periodicity`, until `end_date` if there is one.' })
export class RecurrenceSchedule {
  @JSONSchema({
    description:
      "Due date of the first cycle, YYYY-MM-DD; must be after today in Brasília time (today is refused). Later cycles fall on the same day of the week, month or year (clamped to the month's last day).",
  })
  @IsAfterToday({ message: R.startDateNotAfterToday })
  @IsExistingDate({ message: R.dateInvalid('body.schedule.start_date') })
  @HasDateFormat({ message: R.dateFormat('body.schedule.start_date') })
  @IsDefined(required('body.schedule.start_date'))
  start_date!: string;

  // Absent or null: open-ended (null in the validated value).
  @JSONSchema({
    description: 'Last day a cycle may fall due, YYYY-MM-DD, after `start_date`. Absent or null: open-ended, until you cancel. Cannot be changed later.',
  })
  @IsAfterDate('start_date', { message: R.endDateNotAfterStartDate })
  @IsExistingDate({ message: R.dateInvalid('body.schedule.end_date') })
  @HasDateFormat({ message: R.dateFormat('body.schedule.end_date') })
  @IsOptional()
  end_date!: string | null;

  @JSONSchema({ description: 'How often a cycle falls due: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL or ANNUAL.' })
  @IsIn(PERIODICITIES, { message: R.periodicityInvalid })
  @IsDefined(required('body.schedule.periodicity'))
  periodicity!: Periodicity;

  /** Brasília today, for IsAfterToday: set by validateCreateRecurrence, removed from the value it returns. */
  today?: string;
}

@JSONSchema({ description: 'A new recurrence. Any field not listed here is refused, and nothing is created.' })
export class CreateRecurrenceRequest {
  @JSONSchema({
    description:
      'Your identifier of the recurrence, unique in your account (per environment), at most 35 characters (longer is refused, not truncated). Shown to the payer and echoed as `contract`.',
  })
  @MaxLength(35, { message: R.transactionIdTooLong })
  @IsString({ message: R.notAString('body.transaction_id') })
  @IsNotEmpty(required('body.transaction_id'))
  @IsDefined(required('body.transaction_id'))
  transaction_id!: string;

  @JSONSchema({ description: 'What the subscription is for, at most 35 characters. On journey 3 it is the text shown on the immediate payment.' })
  @MaxLength(35, { message: R.objectTooLong })
  @IsString({ message: R.notAString('body.object') })
  @OptionalField()
  object?: string;

  @JSONSchema({ description: 'The payer. Fixed for the life of the recurrence.' })
  @ValidateNested({ message: R.notAnObject('body.debtor') })
  @Type(() => RecurrenceDebtor)
  @IsObject({ message: R.notAnObject('body.debtor') })
  @IsDefined(required('body.debtor'))
  debtor!: RecurrenceDebtor;

  @JSONSchema({ description: 'When the cycles fall due.' })
  @ValidateNested({ message: R.notAnObject('body.schedule') })
  @Type(() => RecurrenceSchedule)
  @IsObject({ message: R.notAnObject('body.schedule') })
  @IsDefined(required('body.schedule'))
  schedule!: RecurrenceSchedule;

  @JSONSchema({
    description:
      'Amount of each cycle, in reais (BRL): positive, at most 2 decimal places, at most 9999999999.99. The same for every cycle: variable-amount mandates are not supported.',
  })
  @Max(MAX_PIX_AMOUNT, { message: R.amountTooLarge })
  @HasAtMostTwoDecimals({ message: R.amountDecimals })
  @IsPositiveReais({ message: R.amountPositive })
  @IsDefined({ message: R.amountRequired })
  amount!: number;

  @JSONSchema({
    description:
      'NOT_ALLOWED: a failed charge is not retried. ALLOWS_3R_7D: you may retry a failed charge up to 3 times, each on a date 1 to 7 days after its due date. Cannot be changed later.',
  })
  @IsIn(RETRY_POLICIES, { message: R.retryPolicyInvalid })
  @IsDefined(required('body.retry_policy'))
  retry_policy!: RetryPolicy;

  @JSONSchema({
    description:
      'true: a due date on a weekend or a national or bank holiday moves to the next business day. Default false: the debit is on the exact date. A JSON boolean (the string "true" is refused); changeable later.',
  })
  @IsBoolean({ message: R.businessDayAdjustInvalid })
  @OptionalField()
  business_day_adjust!: boolean;

  @JSONSchema({
    description:
      "How many days before each due date the cycle's charge is created: an integer from 3 to 10, default 5. Changeable later; applies to charges not yet created.",
  })
  @Max(10, { message: R.chargeLeadDaysInvalid })
  @Min(3, { message: R.chargeLeadDaysInvalid })
  @IsInt({ message: R.chargeLeadDaysInvalid })
  @OptionalField()
  charge_lead_days!: number;

  // Absent or null: no notifications (null in the validated value).
  @JSONSchema({
    description:
      'An http(s) URL of at most 255 characters that receives the events of the recurrence and of its charges, signed as Standard Webhooks. Absent or null: no notifications. Changeable later.',
  })
  @IsWebhookUrl({ message: R.webhookInvalid })
  @IsOptional()
  webhook!: string | null;

  @JSONSchema({
    description:
      'Makes it journey 3: an immediate payment of this amount (reais, up to 2 decimal places), paid by the payer with the same scan that authorizes the recurrence. It reaches you as a paid Pix charge whose `transaction_id` is yours followed by `-ativacao`.',
  })
  @Max(MAX_PIX_AMOUNT, { message: R.activationAmountTooLarge })
  @HasAtMostTwoDecimals({ message: R.activationAmountDecimals })
  @IsPositiveReais({ message: R.activationAmountPositive })
  @OptionalField()
  activation_amount?: number;

  // Default 3600 with activation_amount; undefined without it, where it has no effect.
  @JSONSchema({
    description:
      'Seconds the activation payment stays payable: 1 to 86400, default 3600. Only with `activation_amount`. Unpaid by then, the recurrence can no longer be authorized: cancel it and create a new one.',
  })
  @Max(86400, { message: R.activationExpiresInInvalid })
  @Min(1, { message: R.activationExpiresInInvalid })
  @IsInt({ message: R.activationExpiresInInvalid })
  @OptionalField()
  activation_expires_in?: number;

  @JSONSchema({ description: 'An existing QR code location at the bank to reuse; when omitted, a new one is created.' })
  @Max(MAX_RECORD_ID, { message: R.locationIdInvalid })
  @Min(1, { message: R.locationIdInvalid })
  @IsInt({ message: R.locationIdInvalid })
  @OptionalField()
  location_id?: number;

  /** amount in centavos, set once the rules pass (never a wire field). */
  amount_centavos!: number;
  /** activation_amount in centavos, when sent. */
  activation_amount_centavos?: number;
}
