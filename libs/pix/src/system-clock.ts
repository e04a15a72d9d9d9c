import { brasiliaDate, Clock, clockOffsetMs, noClockOffset, TenantClockOffset, TenantRef } from './clock';

/** Real time, plus each sandbox tenant's test-clock offset. The only reader of the wall clock. */
export class SystemClock implements Clock {
  constructor(private readonly offsetOf: TenantClockOffset = noClockOffset) {}

  now(tenant?: TenantRef): Date {
    // eslint-disable-next-line no-restricted-syntax -- the one place in the system that reads the wall clock
    const wallClockMs = Date.now();
    return new Date(wallClockMs + clockOffsetMs(this.offsetOf, tenant));
  }

  today(tenant?: TenantRef): string {
    return brasiliaDate(this.now(tenant));
  }
}
