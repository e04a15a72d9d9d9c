import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { MAX_PIX_AMOUNT } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { PERIODICITIES, Periodicity, RETRY_POLICIES, RetryPolicy } from './recurrence.types';
import { HasDateFormat, IsAfterDate, IsAfterToday, IsCpfOrCnpj, IsExistingDate, IsWebhookUrl, OptionalField } from './recurrence.validators';

// POST /v2/automatic-pix/recurrences (service-api.md 4.1). Decorators run bottom-up: the last one is checked first.

const R = Messages.recurrences;
const required = (field: string) => ({ message: Messages.required(field) });

export class DebtorAddress {
  @MaxLength(200, { message: R.streetTooLong })
  @IsString({ message: R.notAString('body.debtor.address.street') })
  @IsNotEmpty(required('body.debtor.address.street'))
  @IsDefined(required('body.debtor.address.street'))
  street!: string;

  @MaxLength(200, { message: R.cityTooLong })
  @IsString({ message: R.notAString('body.debtor.address.city') })
  @IsNotEmpty(required('body.debtor.address.city'))
  @IsDefined(required('body.debtor.address.city'))
  city!: string;

  @Matches(/^[A-Z]{2}$/, { message: R.stateInvalid })
  @IsDefined(required('body.debtor.address.state'))
  state!: string;

  @Matches(/^\d{8}$/, { message: R.zipCodeInvalid })
  @IsDefined(required('body.debtor.address.zip_code'))
  zip_code!: string;
}

export class RecurrenceDebtor {
  @IsCpfOrCnpj({ message: R.documentInvalid })
  @IsDefined(required('body.debtor.document_number'))
  document_number!: string;

  @MaxLength(100, { message: R.debtorNameTooLong })
  @IsString({ message: R.notAString('body.debtor.name') })
  @IsNotEmpty(required('body.debtor.name'))
  @IsDefined(required('body.debtor.name'))
  name!: string;

  @MaxLength(140, { message: R.emailInvalid })
  @IsEmail({}, { message: R.emailInvalid })
  @OptionalField()
  email?: string;

  @ValidateNested({ message: R.notAnObject('body.debtor.address') })
  @Type(() => DebtorAddress)
  @IsObject({ message: R.notAnObject('body.debtor.address') })
  @OptionalField()
  address?: DebtorAddress;
}

export class RecurrenceSchedule {
  @IsAfterToday({ message: R.startDateNotAfterToday })
  @IsExistingDate({ message: R.dateInvalid('body.schedule.start_date') })
  @HasDateFormat({ message: R.dateFormat('body.schedule.start_date') })
  @IsDefined(required('body.schedule.start_date'))
  start_date!: string;

  /** Absent or null: open-ended (null in the validated value). */
  @IsAfterDate('start_date', { message: R.endDateNotAfterStartDate })
  @IsExistingDate({ message: R.dateInvalid('body.schedule.end_date') })
  @HasDateFormat({ message: R.dateFormat('body.schedule.end_date') })
  @IsOptional()
  end_date!: string | null;

  @IsIn(PERIODICITIES, { message: R.periodicityInvalid })
  @IsDefined(required('body.schedule.periodicity'))
  periodicity!: Periodicity;

  /** Brasília today, for IsAfterToday: set by validateCreateRecurrence, removed from the value it returns. */
  today?: string;
}

export class CreateRecurrenceRequest {
  @MaxLength(35, { message: R.transactionIdTooLong })
  @IsString({ message: R.notAString('body.transaction_id') })
  @IsNotEmpty(required('body.transaction_id'))
  @IsDefined(required('body.transaction_id'))
  transaction_id!: string;

  @MaxLength(35, { message: R.objectTooLong })
  @IsString({ message: R.notAString('body.object') })
  @OptionalField()
  object?: string;

  @ValidateNested({ message: R.notAnObject('body.debtor') })
  @Type(() => RecurrenceDebtor)
  @IsObject({ message: R.notAnObject('body.debtor') })
  @IsDefined(required('body.debtor'))
  debtor!: RecurrenceDebtor;

  @ValidateNested({ message: R.notAnObject('body.schedule') })
  @Type(() => RecurrenceSchedule)
  @IsObject({ message: R.notAnObject('body.schedule') })
  @IsDefined(required('body.schedule'))
  schedule!: RecurrenceSchedule;

  @Max(MAX_PIX_AMOUNT, { message: R.amountTooLarge })
  @HasAtMostTwoDecimals({ message: R.amountDecimals })
  @IsPositiveReais({ message: R.amountPositive })
  @IsDefined({ message: R.amountRequired })
  amount!: number;

  @IsIn(RETRY_POLICIES, { message: R.retryPolicyInvalid })
  @IsDefined(required('body.retry_policy'))
  retry_policy!: RetryPolicy;

  /** Default false: debit on the exact date. */
  @IsBoolean({ message: R.businessDayAdjustInvalid })
  @OptionalField()
  business_day_adjust!: boolean;

  /** Default 5. */
  @Max(10, { message: R.chargeLeadDaysInvalid })
  @Min(3, { message: R.chargeLeadDaysInvalid })
  @IsInt({ message: R.chargeLeadDaysInvalid })
  @OptionalField()
  charge_lead_days!: number;

  /** Absent or null: no notifications (null in the validated value). */
  @IsWebhookUrl({ message: R.webhookInvalid })
  @IsOptional()
  webhook!: string | null;

  /** Present: journey 3, an immediate payment bound to the recurrence. */
  @Max(MAX_PIX_AMOUNT, { message: R.activationAmountTooLarge })
  @HasAtMostTwoDecimals({ message: R.activationAmountDecimals })
  @IsPositiveReais({ message: R.activationAmountPositive })
  @OptionalField()
  activation_amount?: number;

  /** Default 3600 with activation_amount; undefined without it, where it has no effect. */
  @Max(86400, { message: R.activationExpiresInInvalid })
  @Min(1, { message: R.activationExpiresInInvalid })
  @IsInt({ message: R.activationExpiresInInvalid })
  @OptionalField()
  activation_expires_in?: number;

  @Min(1, { message: R.locationIdInvalid })
  @IsInt({ message: R.locationIdInvalid })
  @OptionalField()
  location_id?: number;

  /** amount in centavos, set once the rules pass (never a wire field). */
  amount_centavos!: number;
  /** activation_amount in centavos, when sent. */
  activation_amount_centavos?: number;
}
