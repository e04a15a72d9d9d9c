import { Messages, validation } from '@pixauto/errors';
import { isValidCalendarDate, reaisToCentavos } from '@pixauto/pix';
import { validateBody, Validated } from '../validation';
import { CreateRecurrenceRequest } from './create-recurrence.dto';
import { FieldTree, isJsonObject, unknownFields } from './fields';

/** The fields of a create request, nested ones included. */
export const CREATE_RECURRENCE_FIELDS: FieldTree = {
  transaction_id: true,
  object: true,
  debtor: { document_number: true, name: true, email: true, address: { street: true, city: true, state: true, zip_code: true } },
  schedule: { start_date: true, end_date: true, periodicity: true },
  amount: true,
  retry_policy: true,
  business_day_adjust: true,
  charge_lead_days: true,
  webhook: true,
  activation_amount: true,
  activation_expires_in: true,
  location_id: true,
};

const DEFAULT_CHARGE_LEAD_DAYS = 5;
const DEFAULT_ACTIVATION_EXPIRES_IN = 3600;

/**
 * POST /v2/automatic-pix/recurrences: unknown fields first (the old `contract` with
 * its own message), then every field rule. `today` is the Brasília day (YYYY-MM-DD) start_date must follow.
 * The value has the defaults applied and the amounts also in centavos.
 */
export function validateCreateRecurrence(body: unknown, today: string): Validated<CreateRecurrenceRequest> {
  if (isValidCalendarDate(today) !== 'ok') throw new RangeError(`today is not a calendar date: ${today}`);
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };

  const unknown = unknownFields(body, CREATE_RECURRENCE_FIELDS);
  if (unknown.length > 0) return { ok: false, refusal: validation(...unknownFieldProblems(unknown)) };

  const schedule = isJsonObject(body.schedule) ? { ...body.schedule, today } : body.schedule;
  const checked = validateBody(CreateRecurrenceRequest, { ...body, schedule }, Object.keys(CREATE_RECURRENCE_FIELDS));
  return checked.ok ? { ok: true, value: completed(checked.value) } : checked;
}

function unknownFieldProblems(unknown: string[]): string[] {
  const others = unknown.filter((field) => field !== 'contract');
  return [...(others.length < unknown.length ? [Messages.recurrences.contractRenamed] : []), ...(others.length > 0 ? [Messages.unknownFields(others)] : [])];
}

function completed(request: CreateRecurrenceRequest): CreateRecurrenceRequest {
  delete request.schedule.today;
  request.schedule.end_date ??= null;
  request.webhook ??= null;
  request.business_day_adjust ??= false;
  request.charge_lead_days ??= DEFAULT_CHARGE_LEAD_DAYS;
  request.amount_centavos = reaisToCentavos(request.amount) as number;
  if (request.activation_amount === undefined) {
    delete request.activation_expires_in;
  } else {
    request.activation_expires_in ??= DEFAULT_ACTIVATION_EXPIRES_IN;
    request.activation_amount_centavos = reaisToCentavos(request.activation_amount);
  }
  return request;
}
