import { Messages, validation } from '@pixauto/errors';
import { isValidCalendarDate } from '@pixauto/pix';
import { validateBody, Validated } from '../validation';
import { isJsonObject } from './fields';
import { CHANGEABLE_RECURRENCE_FIELDS, UNCHANGEABLE_RECURRENCE_FIELDS, UpdateRecurrenceRequest } from './update-recurrence.dto';

const R = Messages.recurrences;
const changeable: readonly string[] = CHANGEABLE_RECURRENCE_FIELDS;
const unchangeable: readonly string[] = UNCHANGEABLE_RECURRENCE_FIELDS;

/**
 * PATCH /v2/automatic-pix/recurrences/:recurrence_id: an empty body, fields fixed at
 * creation and unknown fields are refused before any rule runs. `today` is the Brasília day (YYYY-MM-DD)
 * a new start_date must follow. In the value, webhook null means "clear it", absent means "leave it".
 */
export function validateUpdateRecurrence(body: unknown, today: string): Validated<UpdateRecurrenceRequest> {
  if (isValidCalendarDate(today) !== 'ok') throw new RangeError(`today is not a calendar date: ${today}`);
  if (body === undefined) return { ok: false, refusal: validation(R.nothingToChange) };
  if (!isJsonObject(body)) return { ok: false, refusal: validation(Messages.request.notAnObject) };

  const sent = Object.keys(body);
  if (sent.length === 0) return { ok: false, refusal: validation(R.nothingToChange) };
  const fixed = sent.filter((field) => unchangeable.includes(field));
  const unknown = sent.filter((field) => !changeable.includes(field) && !unchangeable.includes(field));
  const problems = [...(fixed.length > 0 ? [R.unchangeable(fixed)] : []), ...(unknown.length > 0 ? [R.notChangeable(unknown)] : [])];
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };

  const checked = validateBody(UpdateRecurrenceRequest, { ...body, today }, [...CHANGEABLE_RECURRENCE_FIELDS, 'today']);
  return checked.ok ? { ok: true, value: completed(checked.value) } : checked;
}

function completed(request: UpdateRecurrenceRequest): UpdateRecurrenceRequest {
  delete request.today;
  if (request.webhook === '') request.webhook = null;
  return request;
}
