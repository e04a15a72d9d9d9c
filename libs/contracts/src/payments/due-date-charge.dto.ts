import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
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
import { ABATEMENT_MODALITIES, DISCOUNT_MODALITIES, FINE_MODALITIES, INTEREST_MODALITIES, MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { HasDateFormat, IsExistingDate, IsWebhookUrl, OptionalField } from '../recurrences/recurrence.validators';
import { TransactionAmountField, TransactionIdField } from '../transaction-fields';
import { PixChargePayerRequest } from './create-pix-charge.dto';

// POST /v2/cobv and PATCH /v2/cobv/{id}: a due-date Pix charge (docs/api/due-date-charges.md). Decorators run
// bottom-up: the last one is checked first. The rules' values are checked here for their shape; what they mean
// against the amount and the due date is checked after (validateDueDateTerms).

const D = Messages.dueDateCharges;
const T = Messages.transactions;

const value = (field: string, description: string) => (target: object, key: string) => {
  JSONSchema({ description })(target, key);
  Max(MAX_PIX_AMOUNT, { message: D.valueInvalid(field) })(target, key);
  HasAtMostTwoDecimals({ message: D.valueInvalid(field) })(target, key);
  IsPositiveReais({ message: D.valueInvalid(field) })(target, key);
  IsDefined({ message: D.valueInvalid(field) })(target, key);
};

@JSONSchema({ description: 'The payer. BCB requires their CPF or CNPJ and name on a due-date charge; the address and e-mail are optional.' })
export class DueDateChargePayerRequest extends PixChargePayerRequest {
  @JSONSchema({ description: "The payer's e-mail, at most 77 characters. Absent or null: none." })
  @IsEmail({}, { message: D.payerEmailInvalid })
  @MaxLength(77, { message: D.payerEmailInvalid })
  @IsString({ message: D.payerEmailInvalid })
  @IsOptional()
  email?: string | null;

  @JSONSchema({ description: "The payer's street address, at most 200 characters. Absent or null: none." })
  @MaxLength(200, { message: D.payerStreetInvalid })
  @IsString({ message: D.payerStreetInvalid })
  @IsOptional()
  street?: string | null;

  @JSONSchema({ description: "The payer's city, at most 200 characters. Absent or null: none." })
  @MaxLength(200, { message: D.payerCityInvalid })
  @IsString({ message: D.payerCityInvalid })
  @IsOptional()
  city?: string | null;

  @JSONSchema({ description: "The payer's state, two capital letters (SP, RJ...). Absent or null: none." })
  @Matches(/^[A-Z]{2}$/, { message: D.payerStateInvalid })
  @IsString({ message: D.payerStateInvalid })
  @IsOptional()
  state?: string | null;

  @JSONSchema({ description: "The payer's CEP, 8 digits without punctuation. Absent or null: none." })
  @Matches(/^\d{8}$/, { message: D.payerPostalCodeInvalid })
  @IsString({ message: D.payerPostalCodeInvalid })
  @IsOptional()
  postal_code?: string | null;
}

@JSONSchema({ description: 'A fine charged once when the charge is paid after its due date.' })
export class DueDateFineRequest {
  @JSONSchema({ description: 'FIXED_AMOUNT: `value` is in reais. PERCENTAGE: `value` is a percentage of the amount (less any abatement).' })
  @IsIn(FINE_MODALITIES, { message: D.modalityInvalid('fine', FINE_MODALITIES) })
  modality!: string;

  @value('fine', 'Reais (at most the amount), or a percentage (at most 100), as `modality` says: positive, at most 2 decimal places.')
  value!: number;
}

@JSONSchema({ description: 'Interest for each day (calendar or business) the charge is paid after its due date.' })
export class DueDateInterestRequest {
  @JSONSchema({
    description:
      'AMOUNT_PER_CALENDAR_DAY or AMOUNT_PER_BUSINESS_DAY: `value` reais a day. PERCENT_PER_DAY_*: `value` percent a day; PERCENT_PER_MONTH_*: a 30th of `value` percent a day; PERCENT_PER_YEAR_*: a 360th. `_CALENDAR_DAYS` counts every day after the due date, `_BUSINESS_DAYS` only business days.',
  })
  @IsIn(INTEREST_MODALITIES, { message: D.modalityInvalid('interest', INTEREST_MODALITIES) })
  modality!: string;

  @value('interest', 'Reais (at most the amount), or a percentage (at most 100), as `modality` says: positive, at most 2 decimal places.')
  value!: number;
}

@JSONSchema({ description: 'An amount taken off the charge whatever the day it is paid.' })
export class DueDateAbatementRequest {
  @JSONSchema({ description: 'FIXED_AMOUNT: `value` is in reais, less than the amount. PERCENTAGE: `value` is a percentage of the amount, less than 100.' })
  @IsIn(ABATEMENT_MODALITIES, { message: D.modalityInvalid('abatement', ABATEMENT_MODALITIES) })
  modality!: string;

  @value('abatement', 'Reais, or a percentage, as `modality` says: positive, at most 2 decimal places.')
  value!: number;
}

@JSONSchema({ description: 'A discount for paying on or before `date`.' })
export class FixedDateDiscountRequest {
  @JSONSchema({ description: 'The last day this discount applies, YYYY-MM-DD, not after the due date.' })
  @IsExistingDate({ message: D.fixedDateInvalid })
  @HasDateFormat({ message: D.fixedDateInvalid })
  @IsDefined({ message: D.fixedDateInvalid })
  date!: string;

  @value('discount.fixed_dates[]', "Reais, or a percentage, as the discount's `modality` says: positive, at most 2 decimal places.")
  value!: number;
}

@JSONSchema({ description: 'A discount for paying early: up to three dates with their values, or a value per day paid ahead of the due date.' })
export class DueDateDiscountRequest {
  @JSONSchema({
    description:
      'FIXED_AMOUNT_UNTIL_DATE or PERCENTAGE_UNTIL_DATE: `fixed_dates`, each a value in reais or percent for paying on or before its date. AMOUNT_PER_CALENDAR_DAY_EARLY, AMOUNT_PER_BUSINESS_DAY_EARLY: `value` reais for each calendar or business day paid ahead of the due date; PERCENT_PER_CALENDAR_DAY_EARLY, PERCENT_PER_BUSINESS_DAY_EARLY: `value` percent for each.',
  })
  @IsIn(DISCOUNT_MODALITIES, { message: D.modalityInvalid('discount', DISCOUNT_MODALITIES) })
  modality!: string;

  @JSONSchema({ description: 'With a per-day modality: reais or a percentage for each day paid ahead, positive, at most 2 decimal places.' })
  @Max(MAX_PIX_AMOUNT, { message: D.valueInvalid('discount') })
  @HasAtMostTwoDecimals({ message: D.valueInvalid('discount') })
  @IsPositiveReais({ message: D.valueInvalid('discount') })
  @IsOptional()
  value?: number;

  @JSONSchema({ description: 'With an _UNTIL_DATE modality: 1 to 3 dates, each not after the due date, with the discount for paying on or before it.' })
  @ValidateNested({ each: true })
  @Type(() => FixedDateDiscountRequest)
  @IsObject({ each: true, message: D.fixedDatesRequired })
  @ArrayMaxSize(3, { message: D.fixedDatesRequired })
  @ArrayMinSize(1, { message: D.fixedDatesRequired })
  @IsArray({ message: D.fixedDatesRequired })
  @IsOptional()
  fixed_dates?: FixedDateDiscountRequest[];
}

const dueDateField = () => (target: object, key: string) => {
  JSONSchema({
    description:
      'The due date, YYYY-MM-DD (Brasília), today or later (at most 36500 days ahead): payable until the end of that day with no fine or interest. A due date on a weekend or bank holiday moves to the next business day, and every rule follows it.',
  })(target, key);
  // Applied in the order they are checked: the format, then whether the day exists.
  HasDateFormat({ message: D.dueDateFormat })(target, key);
  IsExistingDate({ message: D.dueDateInvalid })(target, key);
};

/**
 * A rule of the charge (fine, interest, discount, abatement): an object of its own request type, checked field by
 * field; absent or null means none. Applied as the decorators it stands for would be, bottom up.
 */
const ruleField =
  (rule: 'fine' | 'interest' | 'discount' | 'abatement', type: () => new () => object, description: string) => (target: object, key: string) => {
    IsOptional()(target, key);
    IsObject({ message: D.ruleNotAnObject(rule) })(target, key);
    Type(type)(target, key);
    ValidateNested()(target, key);
    JSONSchema({ description })(target, key);
  };

const DAYS_VALID =
  'Calendar days after the due date the charge may still be paid (with fine and interest): 0 to 3650, default 30. A last day that is not a business day moves to the next one.';

@JSONSchema({ description: 'A new due-date Pix charge: the Pix that replaces the boleto, with a due date, fine, interest, discount and abatement.' })
export class CreateDueDateChargeRequest {
  @TransactionIdField('Your identifier of the charge, unique in your account (per environment), at most 35 characters.')
  transaction_id!: string;

  @TransactionAmountField('The original amount, in reais (BRL): positive, at most 2 decimal places, at most 9999999999.99.')
  amount!: number;

  @dueDateField()
  @IsDefined({ message: D.dueDateRequired })
  due_date!: string;

  @JSONSchema({ description: DAYS_VALID })
  @Max(3650, { message: D.daysValidInvalid })
  @Min(0, { message: D.daysValidInvalid })
  @IsInt({ message: D.daysValidInvalid })
  @OptionalField()
  days_valid_after_due?: number;

  @JSONSchema({ description: 'Who owes it.' })
  @ValidateNested({ message: T.payerNotAnObject })
  @Type(() => DueDateChargePayerRequest)
  @IsObject({ message: T.payerNotAnObject })
  @IsDefined({ message: T.payerRequired })
  payer!: DueDateChargePayerRequest;

  @ruleField('fine', () => DueDateFineRequest, 'A fine for paying after the due date. Absent or null: none.')
  fine?: DueDateFineRequest | null;

  @ruleField('interest', () => DueDateInterestRequest, 'Interest for paying after the due date. Absent or null: none.')
  interest?: DueDateInterestRequest | null;

  @ruleField('discount', () => DueDateDiscountRequest, 'A discount for paying early. Absent or null: none.')
  discount?: DueDateDiscountRequest | null;

  @ruleField('abatement', () => DueDateAbatementRequest, 'An abatement, taken off whatever the day. Absent or null: none.')
  abatement?: DueDateAbatementRequest | null;

  @JSONSchema({ description: 'An http(s) URL of at most 255 characters that receives the events of this charge. Absent or null: no notifications.' })
  @IsWebhookUrl({ message: T.webhookInvalid })
  @IsOptional()
  webhook?: string | null;

  @JSONSchema({ description: 'A message shown to the payer in their banking app, at most 140 characters. Absent or null: none.' })
  @MaxLength(140, { message: T.descriptionInvalid })
  @IsString({ message: T.descriptionInvalid })
  @IsOptional()
  description?: string | null;
}

@JSONSchema({
  description:
    'Changes to a PENDING due-date charge: any of the fields below (null removes a rule or the description), or `{"status": "CANCELLED"}` alone to cancel it.',
})
export class ChangeDueDateChargeRequest {
  @JSONSchema({ description: 'CANCELLED: cancels the charge; sent alone.' })
  @IsIn(['CANCELLED'], { message: D.cancelStatusInvalid })
  @OptionalField()
  status?: string;

  @JSONSchema({ description: 'The new original amount, in reais.' })
  @Max(MAX_PIX_AMOUNT, { message: T.amountTooLarge })
  @HasAtMostTwoDecimals({ message: T.amountDecimals })
  @IsPositiveReais({ message: T.amountPositive })
  @OptionalField()
  amount?: number;

  @dueDateField()
  @OptionalField()
  due_date?: string;

  @JSONSchema({ description: DAYS_VALID })
  @Max(3650, { message: D.daysValidInvalid })
  @Min(0, { message: D.daysValidInvalid })
  @IsInt({ message: D.daysValidInvalid })
  @OptionalField()
  days_valid_after_due?: number;

  @JSONSchema({ description: 'The payer, whole (as at creation).' })
  @ValidateNested({ message: T.payerNotAnObject })
  @Type(() => DueDateChargePayerRequest)
  @IsObject({ message: T.payerNotAnObject })
  @OptionalField()
  payer?: DueDateChargePayerRequest;

  @ruleField('fine', () => DueDateFineRequest, 'The new fine; null: none.')
  fine?: DueDateFineRequest | null;

  @ruleField('interest', () => DueDateInterestRequest, 'The new interest; null: none.')
  interest?: DueDateInterestRequest | null;

  @ruleField('discount', () => DueDateDiscountRequest, 'The new discount; null: none.')
  discount?: DueDateDiscountRequest | null;

  @ruleField('abatement', () => DueDateAbatementRequest, 'The new abatement; null: none.')
  abatement?: DueDateAbatementRequest | null;

  @JSONSchema({ description: 'The new message shown to the payer, at most 140 characters; null: none.' })
  @MaxLength(140, { message: T.descriptionInvalid })
  @IsString({ message: T.descriptionInvalid })
  @IsOptional()
  description?: string | null;
}
