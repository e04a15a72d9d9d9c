import { PeriodPage, PeriodPageParams, validatePeriodPage } from '../period-page';
import { Validated } from '../validation';

// GET /v2/automatic-pix/recurrences : the period list, with no filter of its own.

/** What a listing asks for: creation dates between start and end (ISO 8601 with zone), newest first. */
export type ListRecurrencesQuery = PeriodPage;

export function validateListRecurrences(query: unknown): Validated<ListRecurrencesQuery> {
  const checked = validatePeriodPage(PeriodPageParams, query);
  return checked.ok ? { ok: true, value: checked.value.period } : checked;
}
