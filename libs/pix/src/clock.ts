// The one clock (house style: one way to tell the time). Every date rule is in Brasília time
// ; in the sandbox "now" is the tenant's own test clock (docs/decisions/sandbox-clock.md).

export const BRASILIA_TIME_ZONE = 'America/Sao_Paulo';

/** The tenant of a request: an account in one environment; production and sandbox data never mix. */
export interface TenantRef {
  accountId: string;
  environment: 'production' | 'sandbox';
}

export interface Clock {
  /** The current instant; for a sandbox tenant, shifted by that tenant's test clock. */
  now(tenant?: TenantRef): Date;
  /** Today in Brasília, YYYY-MM-DD, at now(tenant). */
  today(tenant?: TenantRef): string;
}

/** How far (in milliseconds) a tenant's clock runs ahead of real time. Synchronous: called on every now(). */
export type TenantClockOffset = (tenant: TenantRef) => number;

export const noClockOffset: TenantClockOffset = () => 0;

/**
 * The offset to apply to a tenant's "now". Production always runs on real time, whatever the
 * lookup says, so a test-clock bug can never move a production date.
 */
export function clockOffsetMs(offsetOf: TenantClockOffset, tenant: TenantRef | undefined): number {
  if (tenant?.environment !== 'sandbox') return 0;
  const offset = offsetOf(tenant);
  if (!Number.isFinite(offset)) throw new RangeError(`tenant clock offset is not a number of milliseconds: ${offset}`);
  return offset;
}

// Built once: constructing an Intl formatter is far slower than using one. en-CA prints YYYY-MM-DD.
const brasiliaCalendar = new Intl.DateTimeFormat('en-CA', {
  timeZone: BRASILIA_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const HOUR_MS = 60 * 60 * 1000;
/** Since 1914 Brazil's offsets are whole hours, so the day changes only on a UTC hour: one answer serves the hour. */
const WHOLE_HOUR_OFFSETS_SINCE = Date.UTC(1914, 0, 1);
const dayOfHour = new Map<number, string>();

/** The calendar day (YYYY-MM-DD) that the instant falls on in Brasília. */
export function brasiliaDate(instant: Date): string {
  const ms = instant.getTime();
  const hour = Math.floor(ms / HOUR_MS);
  const known = ms >= WHOLE_HOUR_OFFSETS_SINCE ? dayOfHour.get(hour) : undefined;
  if (known !== undefined) return known;
  // formatToParts is slow (it was a tenth of the charge scheduler's CPU): asked once per hour met.
  const parts = brasiliaCalendar.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${part('year')}-${part('month')}-${part('day')}`;
  if (ms >= WHOLE_HOUR_OFFSETS_SINCE) {
    if (dayOfHour.size >= 10_000) dayOfHour.clear();
    dayOfHour.set(hour, day);
  }
  return day;
}

/** ISO 8601 in UTC with milliseconds, as the API shows timestamps: 2026-11-22T08:43:39.123Z. */
export function isoUtc(instant: Date): string {
  return instant.toISOString();
}

/**
 * The first instant of a Brasília calendar day (YYYY-MM-DD): when a date rule of that day starts to apply. Found
 * by asking the time zone, so it stays right if Brazil ever keeps summer time again.
 */
export function brasiliaStartOfDay(date: string): Date {
  let instant = startOfDay.get(date);
  if (instant === undefined) {
    // Brasília has been UTC-3 since 2019 (UTC-2 in old summers): start from 03:00Z and walk back while still that day.
    instant = Date.parse(`${date}T03:00:00Z`);
    if (Number.isNaN(instant)) throw new RangeError(`not a calendar date: ${date}`);
    while (brasiliaDate(new Date(instant)) !== date) instant += HOUR_MS;
    while (brasiliaDate(new Date(instant - HOUR_MS)) === date) instant -= HOUR_MS;
    if (startOfDay.size >= 10_000) startOfDay.clear();
    startOfDay.set(date, instant);
  }
  return new Date(instant); // a new Date each time: callers may not share a mutable one
}

/** Remembered per day: the scheduler asks this several times per charge. */
const startOfDay = new Map<string, number>();
