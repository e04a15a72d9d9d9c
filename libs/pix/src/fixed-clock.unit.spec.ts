import { TenantRef } from './clock';
import { FixedClock } from './fixed-clock';

const sandbox: TenantRef = { accountId: 'acc-1', environment: 'sandbox' };
const HOUR = 60 * 60 * 1000;

describe('FixedClock', () => {
  it('stands still', () => {
    const clock = new FixedClock('2026-11-22T08:43:39.123Z');
    expect(clock.now().toISOString()).toBe('2026-11-22T08:43:39.123Z');
    expect(clock.now().toISOString()).toBe('2026-11-22T08:43:39.123Z');
    expect(clock.today()).toBe('2026-11-22');
  });

  it('accepts a Date and does not share it', () => {
    const start = new Date('2026-11-22T08:00:00Z');
    const clock = new FixedClock(start);
    start.setTime(0);
    clock.now().setTime(0);
    expect(clock.now().toISOString()).toBe('2026-11-22T08:00:00.000Z');
  });

  it('is set and advanced, across Brasília midnight', () => {
    const clock = new FixedClock('2026-11-22T02:59:59Z');
    expect(clock.today()).toBe('2026-11-21');
    clock.advance(1000);
    expect(clock.today()).toBe('2026-11-22');
    clock.advanceDays(10);
    expect(clock.now().toISOString()).toBe('2026-12-02T03:00:00.000Z');
    clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(clock.today()).toBe('2026-12-31');
    clock.set('2027-01-01T03:00:00Z');
    expect(clock.today()).toBe('2027-01-01');
  });

  it("applies a sandbox tenant's offset, as the system clock does", () => {
    const clock = new FixedClock('2026-11-22T12:00:00Z', () => 15 * HOUR);
    expect(clock.now(sandbox).toISOString()).toBe('2026-11-23T03:00:00.000Z');
    expect(clock.today(sandbox)).toBe('2026-11-23');
    expect(clock.today({ ...sandbox, environment: 'production' })).toBe('2026-11-22');
    expect(clock.today()).toBe('2026-11-22');
  });

  it('refuses something that is not an instant', () => {
    expect(() => new FixedClock('yesterday')).toThrow(RangeError);
    expect(() => new FixedClock('2026-11-22T12:00:00Z').advance(NaN)).toThrow(RangeError);
  });
});
