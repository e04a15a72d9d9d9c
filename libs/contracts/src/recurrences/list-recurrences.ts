import { Matches } from 'class-validator';
import { Messages, validation } from '@pixauto/errors';
import { validateQuery, Validated } from '../validation';
import { IsDateTimeWithZone, OptionalField } from './recurrence.validators';

// GET /v2/automatic-pix/recurrences (service-api.md 4.3). Query values arrive as strings.

const R = Messages.recurrences;
const MAX_PAGE_SIZE = 100;
const WHOLE_NUMBER = /^\d{1,15}$/;

class ListRecurrencesParams {
  @IsDateTimeWithZone({ message: R.dateTimeInvalid('query.start') })
  @OptionalField()
  start?: string;

  @IsDateTimeWithZone({ message: R.dateTimeInvalid('query.end') })
  @OptionalField()
  end?: string;

  @Matches(WHOLE_NUMBER, { message: R.pageInvalid })
  @OptionalField()
  page?: string;

  @Matches(/^0*[1-9]\d*$/, { message: R.pageSizeInvalid })
  @OptionalField()
  page_size?: string;
}

/** What a listing asks for: creation dates between start and end (ISO 8601 with zone), newest first. */
export interface ListRecurrencesQuery {
  start: string;
  end: string;
  /** From 0. */
  page: number;
  /** 1 to 100: larger values become 100. */
  page_size: number;
}

export function validateListRecurrences(query: unknown): Validated<ListRecurrencesQuery> {
  const sent = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  // An empty value (?start=) is as missing as an absent one.
  const params = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== ''));
  const checked = validateQuery(ListRecurrencesParams, params);
  const problems = [
    ...(params.start === undefined || params.end === undefined ? [R.periodRequired] : []),
    ...(!checked.ok && checked.refusal.kind === 'validation' ? checked.refusal.problems : []),
  ];
  if (!checked.ok || problems.length > 0) return { ok: false, refusal: validation(...problems) };
  const { start, end, page, page_size } = checked.value;
  return {
    ok: true,
    value: {
      start: start as string,
      end: end as string,
      page: page === undefined ? 0 : Number(page),
      page_size: page_size === undefined ? MAX_PAGE_SIZE : Math.min(Number(page_size), MAX_PAGE_SIZE),
    },
  };
}
