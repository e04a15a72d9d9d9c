import { composeDailyTotals, parseReportDays, reportPeriod, requiredReportDays } from './daily-totals';

const invalid = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: [message] } });

describe('parseReportDays', () => {
  it('defaults to the 30 days ending today, or ending on end_day', () => {
    expect(parseReportDays({}, '2026-11-28')).toEqual({ ok: true, value: { start_day: '2026-10-30', end_day: '2026-11-28' } });
    expect(parseReportDays({ end_day: '2026-03-01' }, '2026-11-28')).toEqual({ ok: true, value: { start_day: '2026-01-31', end_day: '2026-03-01' } });
    expect(parseReportDays({ start_day: '2026-11-28' }, '2026-11-28')).toEqual({ ok: true, value: { start_day: '2026-11-28', end_day: '2026-11-28' } });
  });

  it('refuses a day that does not exist, a reversed period and one over 92 days', () => {
    expect(parseReportDays({ start_day: '2026-02-29' }, '2026-11-28')).toEqual(invalid('query.start_day must be a date, YYYY-MM-DD'));
    expect(parseReportDays({ end_day: '' }, '2026-11-28')).toEqual(invalid('query.end_day must be a date, YYYY-MM-DD'));
    expect(parseReportDays({ start_day: ['2026-11-01'] }, '2026-11-28')).toEqual(invalid('query.start_day must be a date, YYYY-MM-DD'));
    expect(parseReportDays({ start_day: '2026-11-02', end_day: '2026-11-01' }, '2026-11-28')).toEqual(
      invalid('query.end_day must not be before query.start_day'),
    );
    expect(parseReportDays({ start_day: '2026-01-01', end_day: '2026-04-02' }, '2026-11-28')).toMatchObject({ ok: true });
    expect(parseReportDays({ start_day: '2026-01-01', end_day: '2026-04-03' }, '2026-11-28')).toEqual(
      invalid('a report covers at most 92 days: narrow query.start_day to query.end_day'),
    );
  });

  it('a service takes only both days, as the gateway settled them', () => {
    expect(requiredReportDays({ start_day: '2026-11-01', end_day: '2026-11-02' })).toMatchObject({ ok: true });
    expect(requiredReportDays({ end_day: '2026-11-02' })).toMatchObject({ ok: false });
    expect(requiredReportDays(undefined)).toMatchObject({ ok: false });
  });
});

describe('reportPeriod', () => {
  it('spans Brasília days: from 03:00 UTC of the first to 03:00 UTC after the last', () => {
    expect(reportPeriod({ start_day: '2026-11-01', end_day: '2026-11-30' })).toEqual({
      from: new Date('2026-11-01T03:00:00Z'),
      to: new Date('2026-12-01T03:00:00Z'),
    });
  });
});

describe('composeDailyTotals', () => {
  const none = {
    payments: { pix_charges_paid: [], refunds: [] },
    payouts: { payouts: [], rejected: 0 },
    charges: { paid: [], failed_count: 0, failed: [] },
    deliveries: { failed: 0 },
  };

  it('answers every day, zeros where nothing moved, and sums centavos exactly', () => {
    const answer = composeDailyTotals(
      { start_day: '2026-11-01', end_day: '2026-11-03' },
      {
        ...none,
        payments: {
          pix_charges_paid: [
            { day: '2026-11-01', count: 2, centavos: '30' },
            { day: '2026-11-03', count: 1, centavos: '1' },
          ],
          refunds: [{ day: '2026-11-02', count: 1, centavos: '5' }],
        },
        payouts: { payouts: [{ day: '2026-11-03', count: 1, centavos: '7036874417766399' }], rejected: 2 },
        charges: { paid: [], failed_count: 11, failed: [{ charge_id: 'c1', recurrence_id: 'r1', centavos: '777', due_date: '2026-11-02' }] },
        deliveries: { failed: 3 },
      },
    );
    expect(answer.days.map((day) => day.day)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(answer.days[0]).toEqual({
      day: '2026-11-01',
      automatic_pix_charges_paid: { count: 0, amount: 0 },
      pix_charges_paid: { count: 2, amount: 0.3 },
      refunds: { count: 0, amount: 0 },
      payouts: { count: 0, amount: 0 },
    });
    expect(answer.totals).toEqual({
      automatic_pix_charges_paid: { count: 0, amount: 0 },
      pix_charges_paid: { count: 3, amount: 0.31 },
      refunds: { count: 1, amount: 0.05 },
      payouts: { count: 1, amount: 70368744177663.99 },
    });
    expect(answer).toMatchObject({ rejected_payouts: 2, failed_webhook_deliveries: 3 });
    expect(answer.failed_charges).toEqual({ count: 11, latest: [{ charge_id: 'c1', recurrence_id: 'r1', amount: 7.77, due_date: '2026-11-02' }] });
  });

  it('fails loudly on a day outside the period rather than dropping it', () => {
    const stray = { ...none, payouts: { payouts: [{ day: '2026-10-31', count: 1, centavos: '100' }], rejected: 0 } };
    expect(() => composeDailyTotals({ start_day: '2026-11-01', end_day: '2026-11-01' }, stray)).toThrow(RangeError);
  });
});
