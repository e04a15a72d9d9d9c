/** What the merchant typed in a form: a field's text, trimmed ('' for a field left out). */
export function typedIn(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => String(data.get(name) ?? '').trim();
}

/** An amount typed in reais, with a decimal comma or point (19,90 or 19.90), as the API takes it. */
export const reais = (typed: string): number => Number(typed.replace(',', '.'));

/** The browser's day (UTC) this many days from today, as a date field takes it: 2026-11-24. */
export const daysFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The day (YYYY-MM-DD) this many days before another. */
export const dayBefore = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/**
 * Whole Brasília days typed in date fields (YYYY-MM-DD, `from` to `to`, both included) as the API's period: from the
 * first day's midnight to the midnight after the last (the end is excluded), with Brasília's zone.
 */
export function brasiliaDays(from: string, to: string): { start: string; end: string } {
  const dayAfter = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { start: `${from}T00:00:00-03:00`, end: `${dayAfter}T00:00:00-03:00` };
}

/** An instant (ISO 8601) as Brasília's wall clock, to the second: 2026-11-26 09:30:00 (no daylight saving time since 2019). */
export const brasiliaTime = (iso: string): string => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
