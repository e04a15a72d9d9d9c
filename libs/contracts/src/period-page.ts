import { Matches } from 'class-validator';
import { Messages, validation } from '@pixauto/errors';
import { IsDateTimeWithZone, OptionalField } from './recurrences/recurrence.validators';
import { validateQuery, Validated } from './validation';

// The lists by creation period, one page at a time, shaped as the recurrences' list: start and end
// (ISO 8601 with a time zone) required, page from 0, page_size by default and at most 100 (larger becomes 100).
// Query values arrive as strings; unknown parameters are ignored.

const L = Messages.lists;
export const MAX_PAGE_SIZE = 100;
const WHOLE_NUMBER = /^\d{1,15}$/;

/** The query parameters every period list takes; a list with filters of its own extends it. */
export class PeriodPageParams {
  @IsDateTimeWithZone({ message: L.dateTimeInvalid('query.start') })
  @OptionalField()
  start?: string;

  @IsDateTimeWithZone({ message: L.dateTimeInvalid('query.end') })
  @OptionalField()
  end?: string;

  @Matches(WHOLE_NUMBER, { message: L.pageInvalid })
  @OptionalField()
  page?: string;

  @Matches(/^0*[1-9]\d*$/, { message: L.pageSizeInvalid })
  @OptionalField()
  page_size?: string;
}

/** What a period list asks for: creation times from start to end (ISO 8601 with zone), one page, newest first. */
export interface PeriodPage {
  start: string;
  end: string;
  /** From 0. */
  page: number;
  /** 1 to 100: larger values become 100. */
  page_size: number;
}

/**
 * The period and page, and the DTO's own parameters as checked: every problem in one message, the missing period
 * first. An empty value (?start=) is as missing as an absent one.
 */
export function validatePeriodPage<P extends PeriodPageParams>(dto: new () => P, query: unknown): Validated<{ period: PeriodPage; params: P }> {
  const sent = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const params = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== ''));
  const checked = validateQuery(dto, params);
  const problems = [
    ...(params.start === undefined || params.end === undefined ? [L.periodRequired] : []),
    ...(!checked.ok && checked.refusal.kind === 'validation' ? checked.refusal.problems : []),
  ];
  if (!checked.ok || problems.length > 0) return { ok: false, refusal: validation(...problems) };
  const { start, end, page, page_size } = checked.value;
  return {
    ok: true,
    value: {
      period: {
        start: start as string,
        end: end as string,
        page: page === undefined ? 0 : Number(page),
        page_size: page_size === undefined ? MAX_PAGE_SIZE : Math.min(Number(page_size), MAX_PAGE_SIZE),
      },
      params: checked.value,
    },
  };
}

/** Where a page sits in the whole result of a list. */
export interface Pagination {
  /** The page returned, counted from 0. */
  current_page: number;
  /** The page size applied (at most 100). */
  page_size: number;
  /** How many pages the whole result has. */
  total_pages: number;
  /** How many items match, across all pages. */
  total_items: number;
}

export const paginationOf = (page: Pick<PeriodPage, 'page' | 'page_size'>, total: number): Pagination => ({
  current_page: page.page,
  page_size: page.page_size,
  total_pages: Math.ceil(total / page.page_size),
  total_items: total,
});
