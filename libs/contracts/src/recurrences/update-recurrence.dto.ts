import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { CLIENT_SET_STATUSES, ClientSetStatus } from './recurrence.types';
import { HasDateFormat, IsAfterToday, IsExistingDate, IsWebhookUrl, OptionalField } from './recurrence.validators';

// PATCH /v2/automatic-pix/recurrences/:recurrence_id. Decorators run bottom-up.

const R = Messages.recurrences;

@JSONSchema({
  description:
    'The fields to change, at least one. The amount, periodicity, end date, retry policy, object, debtor and schedule are fixed at creation and refused by name: to change the price or the plan, cancel and create a new recurrence.',
})
export class UpdateRecurrenceRequest {
  @JSONSchema({ description: "The payer's new name, at most 140 characters (charges carry at most 100)." })
  @MaxLength(140, { message: R.newDebtorNameTooLong })
  @IsNotEmpty({ message: R.debtorNameEmpty })
  @IsString({ message: R.notAString('body.debtor_name') })
  @OptionalField()
  debtor_name?: string;

  @JSONSchema({
    description: 'A new due date for the first cycle, YYYY-MM-DD, after today in Brasília time and before `end_date`. Charges not yet created follow it.',
  })
  @IsAfterToday({ message: R.newStartDateNotAfterToday })
  @IsExistingDate({ message: R.dateInvalid('body.start_date') })
  @HasDateFormat({ message: R.dateFormat('body.start_date') })
  @OptionalField()
  start_date?: string;

  @JSONSchema({
    description:
      'Only `CANCELLED`: ends the recurrence (no new charge is created; its code is voided). Charges already created are not cancelled with it: cancel each one.',
  })
  @IsIn(CLIENT_SET_STATUSES, { message: R.statusInvalid })
  @OptionalField()
  status?: ClientSetStatus;

  // Absent: unchanged. null (also when sent as ""): cleared.
  @JSONSchema({
    description:
      'A new notification URL (http or https, at most 255 characters); null or an empty string clears it. It also applies to the charges not yet paid; the journey 3 activation keeps the URL it was created with.',
  })
  @IsWebhookUrl({ message: R.newWebhookInvalid })
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null && value !== '')
  webhook?: string | null;

  @JSONSchema({
    description: 'true: due dates on weekends and holidays move to the next business day; false: debit on the exact date. Applies to charges not yet created.',
  })
  @IsBoolean({ message: R.businessDayAdjustInvalid })
  @OptionalField()
  business_day_adjust?: boolean;

  @JSONSchema({ description: "Days before each due date at which the cycle's charge is created, 3 to 10. Applies to charges not yet created." })
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

/** Fields of the recurrence fixed at creation: refused by name. */
export const UNCHANGEABLE_RECURRENCE_FIELDS = [
  'amount',
  'periodicity',
  'end_date',
  'retry_policy',
  'object',
  'debtor',
  'schedule',
  'location_id',
  'contract',
] as const;
