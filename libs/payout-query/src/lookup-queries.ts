import { isGiven, oneIdentifier, PAYOUT_STATUS_CODES, PayoutStatusCode, recordIdOf, Validated } from '@pixauto/contracts';
import { Messages, validation } from '@pixauto/errors';
import { documentType } from '@pixauto/pix';

const W = Messages.withdrawals;

/** GET /v2/withdrawals: exactly one of id and transaction_id. */
export type PayoutLookup = { id: number } | { transaction_id: string };

/** The period lookups: [start, end] in UTC, the end second included. */
export interface Period {
  start: Date;
  /** Exclusive: the second after the `end` asked for, so `23:59:59` takes 23:59:59.999. */
  endBefore: Date;
}

export interface PeriodPageQuery extends Period {
  page: number;
  size: number;
  status?: PayoutStatusCode;
}

/** The page size when none is asked for (the spec leaves it open; Stripe's default). */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

type Query = Record<string, unknown>;
const given = (query: Query, key: string): boolean => isGiven(query[key]);
const POSITIVE_INTEGER = /^[1-9]\d{0,8}$/;

/** Exactly one of id and transaction_id (oneIdentifier: an empty value counts as absent). */
export function parseLookup(query: Query): Validated<PayoutLookup> {
  const named = oneIdentifier(query, ['id', 'transaction_id'], { required: W.identifierRequired, onlyOne: W.onlyOneIdentifier });
  if (!named.ok) return named;
  if (named.value.key === 'transaction_id') return { ok: true, value: { transaction_id: String(named.value.value) } };
  const id = recordIdOf(String(named.value.value));
  return id === undefined ? { ok: false, refusal: validation(W.idInvalid) } : { ok: true, value: { id } };
}

/** `YYYY-MM-DD HH:MM:SS`, read as UTC; a date that does not exist (2026-02-30) is malformed too. */
export function parseUtcDateTime(text: unknown): Date | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const roundTrips =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return roundTrips ? date : undefined;
}

export function parsePeriod(query: Query): Validated<Period> {
  const problems: string[] = [];
  const dateOf = (field: 'start' | 'end'): Date | undefined => {
    if (!given(query, field)) return void problems.push(W.dateRequired(field));
    const date = parseUtcDateTime(query[field]);
    if (!date) problems.push(W.dateInvalid(field));
    return date;
  };
  const start = dateOf('start');
  const end = dateOf('end');
  if (problems.length > 0 || !start || !end) return { ok: false, refusal: validation(...problems) };
  if (start.getTime() >= end.getTime()) return { ok: false, refusal: validation(W.startNotBeforeEnd) };
  return { ok: true, value: { start, endBefore: new Date(end.getTime() + 1000) } };
}

export function parsePeriodPage(query: Query): Validated<PeriodPageQuery> {
  const period = parsePeriod(query);
  if (!period.ok) return period;
  const problems: string[] = [];
  const page = given(query, 'page') ? (POSITIVE_INTEGER.test(String(query.page)) ? Number(query.page) : void problems.push(W.pageInvalid)) : 1;
  let size: number | undefined = DEFAULT_PAGE_SIZE;
  if (given(query, 'size')) {
    size = POSITIVE_INTEGER.test(String(query.size)) ? Number(query.size) : void problems.push(W.sizeInvalid);
    if (size !== undefined && size > MAX_PAGE_SIZE) problems.push(W.sizeTooLarge);
  }
  let status: PayoutStatusCode | undefined;
  if (given(query, 'status')) {
    const code = /^\d$/.test(String(query.status)) ? (Number(query.status) as PayoutStatusCode) : undefined;
    if (code === undefined || !PAYOUT_STATUS_CODES.includes(code)) problems.push(W.statusInvalid);
    else status = code;
  }
  if (problems.length > 0 || page === undefined || size === undefined) return { ok: false, refusal: validation(...problems) };
  return { ok: true, value: { ...period.value, page, size, ...(status !== undefined && { status }) } };
}

/** GET /v2/withdrawals/customer: a CPF or a CNPJ, digits only, check digits valid. */
export function parseCustomer(query: Query): Validated<string> {
  if (!given(query, 'document_number')) return { ok: false, refusal: validation(W.documentRequired) };
  const document = String(query.document_number);
  return documentType(document) ? { ok: true, value: document } : { ok: false, refusal: validation(W.documentInvalid) };
}
