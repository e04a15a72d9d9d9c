import { ValidateIf, ValidationOptions } from 'class-validator';
import { rule } from '../field-rule';
import { compareDates, isValidCalendarDate, isValidCpfOrCnpj } from '@pixauto/pix';

// Field rules shared by the recurrence and solicitation requests.

/** Absent is fine; null is a value like any other and meets the field's rules (unlike IsOptional). */
export const OptionalField = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

export const IsCpfOrCnpj = rule('isCpfOrCnpj', (value) => typeof value === 'string' && isValidCpfOrCnpj(value));

/** YYYY-MM-DD, whether or not the day exists (that is IsExistingDate's message). */
export const HasDateFormat = rule('hasDateFormat', (value) => typeof value === 'string' && isValidCalendarDate(value) !== 'format');

export const IsExistingDate = rule('isExistingDate', (value) => typeof value === 'string' && isValidCalendarDate(value) === 'ok');

/**
 * After Brasília today, which the validating function puts on the object as `today` (it is never a
 * wire field: the unknown-field check refuses it before the rules run).
 */
export const IsAfterToday = rule('isAfterToday', (value, args) => {
  const today = (args.object as { today?: unknown }).today;
  if (typeof today !== 'string') throw new Error(`${args.targetName}.today was not set before validation`);
  return compareDates(value as string, today) > 0;
});

/** After the sibling date field; when that one is not a date, its own message says so and this one is silent. */
export const IsAfterDate = (field: string, options: ValidationOptions) =>
  rule('isAfterDate', (value, args) => {
    const other = (args.object as Record<string, unknown>)[field];
    return typeof other !== 'string' || isValidCalendarDate(other) !== 'ok' || compareDates(value as string, other) > 0;
  })(options);

/** An http(s) URL of at most 255 characters (a webhook); localhost and IPs allowed, for the sandbox. */
export const IsWebhookUrl = rule('isWebhookUrl', (value) => typeof value === 'string' && isWebhookUrl(value));

/** ISO 8601 date-time with a time zone: 2026-05-01T10:00:00-03:00, 2026-05-01T13:00:00.000Z. */
export const IsDateTimeWithZone = rule('isDateTimeWithZone', (value) => typeof value === 'string' && isDateTimeWithZone(value));

const DATE_TIME_WITH_ZONE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export function isDateTimeWithZone(s: string): boolean {
  const match = DATE_TIME_WITH_ZONE.exec(s);
  return match !== null && isValidCalendarDate(match[1]) === 'ok';
}

function isWebhookUrl(s: string): boolean {
  if (s.length > 255 || !/^https?:\/\/[^/?#]/i.test(s)) return false;
  try {
    return new URL(s).hostname !== '';
  } catch {
    return false;
  }
}
