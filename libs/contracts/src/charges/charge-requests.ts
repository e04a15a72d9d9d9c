import { Messages, Refusal, validation } from '@pixauto/errors';
import { compareDates, isValidCalendarDate } from '@pixauto/pix';
import { Validated } from '../validation';
import { isJsonObject } from '../recurrences/fields';
import { MAX_PAGE_SIZE, type PeriodPage } from '../period-page';
import { CHARGE_STATUSES, type ChargeStatus } from './charge.types';

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

/** GET /v2/automatic-pix/charges: the charges of every recurrence due from one day to another (both included), one page. */
export interface ListChargesDueQuery extends Pick<PeriodPage, 'page' | 'page_size'> {
  due_from: string;
  due_to: string;
  status: ChargeStatus | undefined;
}

const WHOLE_NUMBER = /^\d{1,15}$/;
const POSITIVE_NUMBER = /^0*[1-9]\d{0,14}$/;

/** Every problem of the query in one message, the missing period first; an empty value (?status=) is as missing as an absent one. */
export function validateListChargesDue(query: unknown): Validated<ListChargesDueQuery> {
  const sent = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const given = (name: string): string | undefined => (typeof sent[name] === 'string' && sent[name] !== '' ? (sent[name] as string) : undefined);
  const problems: string[] = [];
  const day = (name: 'due_from' | 'due_to'): string | undefined => {
    const value = given(name);
    if (value === undefined) return undefined;
    const check = isValidCalendarDate(value);
    if (check === 'ok') return value;
    problems.push(check === 'format' ? C.dueDateFormat(`query.${name}`) : C.dueDateInvalid(`query.${name}`));
    return undefined;
  };
  const [from, to] = [day('due_from'), day('due_to')];
  if (given('due_from') === undefined || given('due_to') === undefined) problems.unshift(C.duePeriodRequired);
  if (from && to && compareDates(to, from) < 0) problems.push(C.duePeriodReversed);
  const status = given('status');
  if (status !== undefined && !(CHARGE_STATUSES as readonly string[]).includes(status)) problems.push(C.listStatusInvalid);
  const [page, pageSize] = [given('page'), given('page_size')];
  if (page !== undefined && !WHOLE_NUMBER.test(page)) problems.push(Messages.lists.pageInvalid);
  if (pageSize !== undefined && !POSITIVE_NUMBER.test(pageSize)) problems.push(Messages.lists.pageSizeInvalid);
  if (problems.length > 0) return refused(validation(...problems));
  return {
    ok: true,
    value: {
      due_from: from as string,
      due_to: to as string,
      status: status as ChargeStatus | undefined,
      page: page === undefined ? 0 : Number(page),
      page_size: pageSize === undefined ? MAX_PAGE_SIZE : Math.min(Number(pageSize), MAX_PAGE_SIZE),
    },
  };
}
