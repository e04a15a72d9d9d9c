import { cycleIndex, daysBetween, monthsBetween } from './cycle';

describe('daysBetween and monthsBetween', () => {
  it('count calendar days, across month and year ends and leap days', () => {
    expect(daysBetween('2026-01-31', '2026-02-01')).toBe(1);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-01-10', '2026-01-03')).toBe(-7);
  });

  it('count whole months with the start day clamped to shorter months', () => {
    expect(monthsBetween('2026-01-31', '2026-02-27')).toBe(0);
    expect(monthsBetween('2026-01-31', '2026-02-28')).toBe(1); // 31 Jan + 1 month is 28 Feb
    expect(monthsBetween('2024-01-31', '2024-02-29')).toBe(1); // a leap year
    expect(monthsBetween('2026-01-31', '2026-03-30')).toBe(1);
    expect(monthsBetween('2026-01-31', '2026-03-31')).toBe(2); // counted from the start, not from 28 Feb
    expect(monthsBetween('2026-01-15', '2027-01-15')).toBe(12);
    expect(monthsBetween('2026-03-15', '2026-02-20')).toBe(-1);
    expect(monthsBetween('2026-03-15', '2026-02-10')).toBe(-2);
  });
});

describe('cycleIndex', () => {
  const monthly = { dataInicial: '2026-01-31', periodicidade: 'MENSAL' as const };

  it('is 0 from dataInicial and one more every period', () => {
    expect(cycleIndex(monthly, '2026-01-31')).toBe(0);
    expect(cycleIndex(monthly, '2026-02-27')).toBe(0);
    expect(cycleIndex(monthly, '2026-02-28')).toBe(1);
    expect(cycleIndex(monthly, '2026-03-31')).toBe(2);
    expect(cycleIndex(monthly, '2026-04-30')).toBe(3);
    expect(cycleIndex(monthly, '2026-01-30')).toBe(-1); // before the first cycle
  });

  it('keeps a due date moved forward to a business day in its cycle', () => {
    expect(cycleIndex(monthly, '2026-03-02')).toBe(1); // 28 Feb 2026 is a Saturday: debited Monday 2 Mar
    expect(cycleIndex({ dataInicial: '2026-04-30', periodicidade: 'MENSAL' }, '2026-06-01')).toBe(1); // Sat 30 May → Mon 1 Jun
    const weekly = { dataInicial: '2026-01-03', periodicidade: 'SEMANAL' as const }; // a Saturday
    expect(cycleIndex(weekly, '2026-01-09')).toBe(0);
    expect(cycleIndex(weekly, '2026-01-10')).toBe(1);
    expect(cycleIndex(weekly, '2026-01-12')).toBe(1); // Sat 10 Jan → Mon 12 Jan
    expect(cycleIndex(weekly, '2026-01-16')).toBe(1);
    expect(cycleIndex(weekly, '2026-01-17')).toBe(2);
  });

  it('counts quarters, half-years and years in months from dataInicial', () => {
    expect(cycleIndex({ dataInicial: '2026-01-15', periodicidade: 'TRIMESTRAL' }, '2026-04-14')).toBe(0);
    expect(cycleIndex({ dataInicial: '2026-01-15', periodicidade: 'TRIMESTRAL' }, '2026-04-15')).toBe(1);
    expect(cycleIndex({ dataInicial: '2026-01-15', periodicidade: 'TRIMESTRAL' }, '2026-04-17')).toBe(1);
    expect(cycleIndex({ dataInicial: '2025-08-31', periodicidade: 'SEMESTRAL' }, '2026-02-28')).toBe(1);
    expect(cycleIndex({ dataInicial: '2025-08-31', periodicidade: 'SEMESTRAL' }, '2026-08-30')).toBe(1);
    expect(cycleIndex({ dataInicial: '2024-02-29', periodicidade: 'ANUAL' }, '2025-02-27')).toBe(0);
    expect(cycleIndex({ dataInicial: '2024-02-29', periodicidade: 'ANUAL' }, '2025-02-28')).toBe(1);
    expect(cycleIndex({ dataInicial: '2024-02-29', periodicidade: 'ANUAL' }, '2028-02-29')).toBe(4);
  });
});
