import { TenantRef } from './clock';
import { SystemClock } from './system-clock';

const sandbox: TenantRef = { accountId: 'acc-1', environment: 'sandbox' };
const production: TenantRef = { accountId: 'acc-1', environment: 'production' };
const DAY = 24 * 60 * 60 * 1000;

describe('SystemClock', () => {
  afterEach(() => jest.useRealTimers());

  it('reads real time', () => {
    const before = Date.now();
    const now = new SystemClock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('tells today in Brasília', () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T02:59:59Z') });
    const clock = new SystemClock();
    expect(clock.today()).toBe('2026-11-21');
    jest.setSystemTime(new Date('2026-11-22T03:00:00Z'));
    expect(clock.today()).toBe('2026-11-22');
  });

  it("runs a sandbox tenant's clock ahead by its offset", () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    const clock = new SystemClock((tenant) => (tenant.accountId === 'acc-1' ? 3 * DAY : 0));
    expect(clock.now(sandbox).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(clock.today(sandbox)).toBe('2026-11-25');
    expect(clock.now({ accountId: 'acc-2', environment: 'sandbox' }).toISOString()).toBe('2026-11-22T12:00:00.000Z');
  });

  it('never shifts production', () => {
    jest.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
    const clock = new SystemClock(() => 3 * DAY);
    expect(clock.now(production).toISOString()).toBe('2026-11-22T12:00:00.000Z');
    expect(clock.today()).toBe('2026-11-22');
  });

  it('hands out a fresh Date each time', () => {
    const clock = new SystemClock();
    const first = clock.now();
    first.setTime(0);
    expect(clock.now().getTime()).not.toBe(0);
  });
});
