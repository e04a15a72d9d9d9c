import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Messages } from '@pixauto/errors';
import { CLIENT_SET_STATUSES, ClientSetStatus } from './recurrence.types';
import { HasDateFormat, IsAfterToday, IsExistingDate, IsWebhookUrl, OptionalField } from './recurrence.validators';

// PATCH /v2/automatic-pix/recurrences/:recurrence_id (service-api.md 4.4). Decorators run bottom-up.

const R = Messages.recurrences;

export class UpdateRecurrenceRequest {
  @MaxLength(140, { message: R.newDebtorNameTooLong })
  @IsNotEmpty({ message: R.debtorNameEmpty })
  @IsString({ message: R.notAString('body.debtor_name') })
  @OptionalField()
  debtor_name?: string;

  @IsAfterToday({ message: R.newStartDateNotAfterToday })
  @IsExistingDate({ message: R.dateInvalid('body.start_date') })
  @HasDateFormat({ message: R.dateFormat('body.start_date') })
  @OptionalField()
  start_date?: string;

  @IsIn(CLIENT_SET_STATUSES, { message: R.statusInvalid })
  @OptionalField()
  status?: ClientSetStatus;

  /** Absent: unchanged. null (also when sent as ""): cleared. */
  @IsWebhookUrl({ message: R.newWebhookInvalid })
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null && value !== '')
  webhook?: string | null;

  @IsBoolean({ message: R.businessDayAdjustInvalid })
  @OptionalField()
  business_day_adjust?: boolean;

  @Max(10, { message: R.chargeLeadDaysInvalid })
  @Min(3, { message: R.chargeLeadDaysInvalid })
  @IsInt({ message: R.chargeLeadDaysInvalid })
  @OptionalField()
  charge_lead_days?: number;

  /** Brasília today, for IsAfterToday: set by validateUpdateRecurrence, removed from the value it returns. */
  today?: string;
}

/** The fields a PATCH may set, in the order the messages list them. */
export const CHANGEABLE_RECURRENCE_FIELDS = ['debtor_name', 'start_date', 'status', 'webhook', 'business_day_adjust', 'charge_lead_days'] as const;

/** Fields of the recurrence fixed at creation: refused by name (4.4). */
export const UNCHANGEABLE_RECURRENCE_FIELDS = [
  'amount', 'periodicity', 'end_date', 'retry_policy', 'object', 'debtor', 'schedule', 'location_id', 'contract',
] as const;
