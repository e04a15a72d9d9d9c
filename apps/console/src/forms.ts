/** What the merchant typed in a form: a field's text, trimmed ('' for a field left out). */
export function typedIn(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => String(data.get(name) ?? '').trim();
}

/** An amount typed in reais, with a decimal comma or point (19,90 or 19.90), as the API takes it. */
export const reais = (typed: string): number => Number(typed.replace(',', '.'));

/** The browser's day (UTC) this many days from today, as a date field takes it: 2026-11-24. */
export const daysFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
