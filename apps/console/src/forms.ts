/** What the merchant typed in a form: a field's text, trimmed ('' for a field left out). */
export function typedIn(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => String(data.get(name) ?? '').trim();
}

/** An amount typed in reais, with a decimal comma or point (19,90 or 19.90), as the API takes it. */
export const reais = (typed: string): number => Number(typed.replace(',', '.'));

/** Brasília's offset from UTC (no daylight saving time since 2019). */
const BRASILIA_MS = -3 * 3_600_000;

/** Brasília's day this many days from today, as a date field takes it: 2026-11-24 (the console's days are Brasília's). */
export const daysFromToday = (days: number): string => new Date(Date.now() + BRASILIA_MS + days * 86_400_000).toISOString().slice(0, 10);

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

/**
 * Whole Brasília days as the payout lookups' period, whose bounds are UTC wall-clock seconds (YYYY-MM-DD HH:MM:SS,
 * the end's second included): from the first day's 03:00:00 to the day after the last's 02:59:59. A payout made at
 * 22:00 in Brasília is on that Brasília day, though its UTC date is the next.
 */
export function brasiliaDaysInUtc(from: string, to: string): { start: string; end: string } {
  const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const { start, end } = brasiliaDays(from, to);
  return { start: utc(Date.parse(start)), end: utc(Date.parse(end) - 1000) };
}

/** An instant (ISO 8601) as Brasília's wall clock, to the second: 2026-11-26 09:30:00 (no daylight saving time since 2019). */
export const brasiliaTime = (iso: string): string => new Date(Date.parse(iso) + BRASILIA_MS).toISOString().slice(0, 19).replace('T', ' ');

/**
 * An API problem in the form's own words: the field it names (`body.debtor.name is a required field`) becomes the
 * field's label ("Payer's name is a required field"), without its parenthesised note ("(optional)", "(R$)").
 */
export const inFormWords = (problem: string, label: string): string => problem.replace(/^body\.[a-z_.]+/, label.replace(/\s*\([^)]*\)$/, ''));
