import { brasiliaTime } from '../forms';

/** What every instant the console shows is in: Brasília's wall clock; in the sandbox, the test clock's for the sandbox's own records. */
export const zoneOf = (testClock = false): string => (testClock ? 'Brasília time, test clock' : 'Brasília time');

/** A column or a term that holds instants, with their zone: "Created (Brasília time)". */
export const withZone = (label: string, testClock = false): string => `${label} (${zoneOf(testClock)})`;

/**
 * An instant as the console shows every one: 2026-11-27 22:15:03, Brasília's wall clock, the zone in its title (and in
 * the column or term it is under). `testClock`: a sandbox record, stamped by the account's test clock.
 */
export function When({ iso, testClock = false }: { iso: string | null | undefined; testClock?: boolean }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={zoneOf(testClock)}>
      {brasiliaTime(iso)}
    </time>
  );
}
