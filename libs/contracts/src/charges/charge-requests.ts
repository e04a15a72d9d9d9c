import { Messages, Refusal, validation } from '@pixauto/errors';
import { compareDates, isValidCalendarDate } from '@pixauto/pix';
import { Validated } from '../validation';
import { isJsonObject } from '../recurrences/fields';

// The bodies of the charge operations (docs/decisions/charges.md). Small enough to check by hand.

const C = Messages.charges;
const refused = (refusal: Refusal): { ok: false; refusal: Refusal } => ({ ok: false, refusal });

function unknownFieldsOf(body: Record<string, unknown>, allowed: readonly string[]): Refusal | undefined {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  return unknown.length > 0 ? validation(Messages.unknownFields(unknown)) : undefined;
}

/** PATCH /v2/automatic-pix/charges/:charge_id: only {status: "CANCELLED"}. No body reads as a body without status. */
export function validateCancelCharge(body: unknown): Validated<{ status: 'CANCELLED' }> {
  const b = body ?? {};
  if (!isJsonObject(b)) return refused(validation(Messages.request.notAnObject));
  const unknown = unknownFieldsOf(b, ['status']);
  if (unknown) return refused(unknown);
  if (b.status === undefined || b.status === null) return refused(validation(Messages.required('body.status')));
  if (b.status !== 'CANCELLED') return refused(validation(C.statusInvalid));
  return { ok: true, value: { status: 'CANCELLED' } };
}

/**
 * POST .../reschedule and .../retry: {date: "YYYY-MM-DD"}. With `today`, the date must also follow it (reschedule);
 * a retry's date is the settlement system's to judge (its refusal comes back as a ProviderError).
 */
export function validateChargeDate(body: unknown, today?: string): Validated<{ date: string }> {
  const b = body ?? {};
  if (!isJsonObject(b)) return refused(validation(Messages.request.notAnObject));
  const unknown = unknownFieldsOf(b, ['date']);
  if (unknown) return refused(unknown);
  if (b.date === undefined || b.date === null || b.date === '') return refused(validation(C.dateRequired));
  if (typeof b.date !== 'string') return refused(validation(C.dateFormat));
  const check = isValidCalendarDate(b.date);
  if (check === 'format') return refused(validation(C.dateFormat));
  if (check === 'invalid') return refused(validation(C.dateInvalid));
  if (today !== undefined && compareDates(b.date, today) <= 0) return refused(validation(C.dateNotAfterToday));
  return { ok: true, value: { date: b.date } };
}
