import { brasiliaDate, Clock, clockOffsetMs, noClockOffset, TenantClockOffset, TenantRef } from './clock';

const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** A clock that stands still until told to move: for tests. Tenant offsets work as in SystemClock. */
export class FixedClock implements Clock {
  private instantMs: number;

  constructor(
    start: Date | string,
    private readonly offsetOf: TenantClockOffset = noClockOffset,
  ) {
    this.instantMs = toMs(start);
  }

  now(tenant?: TenantRef): Date {
    return new Date(this.instantMs + clockOffsetMs(this.offsetOf, tenant));
  }

  today(tenant?: TenantRef): string {
    return brasiliaDate(this.now(tenant));
  }

  set(instant: Date | string): void {
    this.instantMs = toMs(instant);
  }

  advance(ms: number): void {
    this.instantMs = toMs(new Date(this.instantMs + ms));
  }

  advanceDays(days: number): void {
    this.advance(days * MS_PER_DAY);
  }
}

function toMs(instant: Date | string): number {
  const ms = new Date(instant).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${String(instant)}`);
  return ms;
}
