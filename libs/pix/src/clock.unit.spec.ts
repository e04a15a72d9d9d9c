import fc from 'fast-check';
import { brasiliaDate, brasiliaStartOfDay, clockOffsetMs, isoUtc, noClockOffset, TenantRef } from './clock';

const sandbox: TenantRef = { accountId: 'acc-1', environment: 'sandbox' };
const production: TenantRef = { accountId: 'acc-1', environment: 'production' };

describe('brasiliaDate', () => {
  it('turns the day at midnight Brasília, 03:00 UTC', () => {
    expect(brasiliaDate(new Date('2026-11-22T02:59:59.999Z'))).toBe('2026-11-21');
    expect(brasiliaDate(new Date('2026-11-22T03:00:00.000Z'))).toBe('2026-11-22');
    expect(brasiliaDate(new Date('2026-11-22T23:59:59Z'))).toBe('2026-11-22');
  });

  it('crosses months and years on Brasília midnight', () => {
    expect(brasiliaDate(new Date('2027-01-01T02:59:59Z'))).toBe('2026-12-31');
    expect(brasiliaDate(new Date('2027-01-01T03:00:00Z'))).toBe('2027-01-01');
    expect(brasiliaDate(new Date('2028-03-01T02:00:00Z'))).toBe('2028-02-29');
  });

  it('follows the time zone rules rather than a fixed -03:00 (summer time of 2018/2019 was -02:00)', () => {
    expect(brasiliaDate(new Date('2019-01-15T02:30:00Z'))).toBe('2019-01-15');
    expect(brasiliaDate(new Date('2019-01-15T01:59:59Z'))).toBe('2019-01-14');
  });

  it('pads years, months and days', () => {
    expect(brasiliaDate(new Date('2026-02-05T12:00:00Z'))).toBe('2026-02-05');
  });

  it('answers from its per-hour memory exactly as the time zone database does, summer times included', () => {
    const zone = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });
    const instants = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(instants, fc.integer({ min: 0, max: 3_599_999 }), (instant, withinHour) => {
        // The same hour asked twice, at two moments: the second answer may come from memory.
        const sameHour = new Date(Math.floor(instant.getTime() / 3_600_000) * 3_600_000 + withinHour);
        for (const at of [instant, sameHour]) expect(brasiliaDate(at)).toBe(zone.format(at));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isoUtc', () => {
  it('writes ISO 8601 UTC with milliseconds', () => {
    expect(isoUtc(new Date('2026-11-22T08:43:39.123Z'))).toBe('2026-11-22T08:43:39.123Z');
    expect(isoUtc(new Date('2026-11-22T05:43:39-03:00'))).toBe('2026-11-22T08:43:39.000Z');
  });
});

describe('clockOffsetMs', () => {
  it('asks the lookup for a sandbox tenant', () => {
    expect(clockOffsetMs((t) => (t.accountId === 'acc-1' ? 5000 : 0), sandbox)).toBe(5000);
  });

  it('keeps production and tenant-less calls on real time without asking', () => {
    const lookup = jest.fn(() => 5000);
    expect(clockOffsetMs(lookup, production)).toBe(0);
    expect(clockOffsetMs(lookup, undefined)).toBe(0);
    expect(lookup).not.toHaveBeenCalled();
  });

  it('defaults to no offset', () => {
    expect(clockOffsetMs(noClockOffset, sandbox)).toBe(0);
  });

  it.each([NaN, Infinity])('refuses an offset of %p', (offset) => {
    expect(() => clockOffsetMs(() => offset, sandbox)).toThrow(RangeError);
  });
});

describe('brasiliaStartOfDay', () => {
  it('is midnight in Brasília, 03:00 UTC', () => {
    expect(brasiliaStartOfDay('2027-03-15').toISOString()).toBe('2027-03-15T03:00:00.000Z');
    expect(brasiliaDate(brasiliaStartOfDay('2027-03-15'))).toBe('2027-03-15');
    expect(brasiliaDate(new Date(brasiliaStartOfDay('2027-03-15').getTime() - 1))).toBe('2027-03-14');
  });

  it('follows an old summer time (UTC-2)', () => {
    expect(brasiliaStartOfDay('2018-12-01').toISOString()).toBe('2018-12-01T02:00:00.000Z');
  });
});
