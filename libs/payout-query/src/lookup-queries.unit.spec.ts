import { parseCustomer, parseLookup, parsePeriod, parsePeriodPage, parseUtcDateTime } from './lookup-queries';

const refused = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: message.split('. ') } });

describe('the payout lookups’ queries (by id, by period, by customer, by end-to-end id)', () => {
  it('reads YYYY-MM-DD HH:MM:SS as UTC, and nothing else', () => {
    expect(parseUtcDateTime('2026-11-24 23:59:59')).toEqual(new Date('2026-11-24T23:59:59.000Z'));
    expect(parseUtcDateTime('2024-02-29 00:00:00')).toEqual(new Date('2024-02-29T00:00:00.000Z'));
    for (const bad of [
      '2026-02-29 00:00:00',
      '2026-11-24T23:59:59',
      '2026-11-24',
      '2026-11-24 24:00:00',
      '2026-13-01 00:00:00',
      '2026-11-24 23:59:60',
      ' 2026-11-24 23:59:59',
      20261124,
    ]) {
      expect(parseUtcDateTime(bad)).toBeUndefined();
    }
  });

  it('takes a period with the end second included, start before end', () => {
    expect(parsePeriod({ start: '2026-11-24 00:00:00', end: '2026-11-24 23:59:59' })).toEqual({
      ok: true,
      value: { start: new Date('2026-11-24T00:00:00Z'), endBefore: new Date('2026-11-25T00:00:00Z') },
    });
    expect(parsePeriod({ start: '2026-11-24 00:00:00', end: '2026-11-24 00:00:00' })).toEqual(refused('start date must be less than end date'));
    expect(parsePeriod({})).toEqual(refused('query.start is a required field. query.end is a required field'));
    expect(parsePeriod({ start: 'today', end: '2026-11-24 00:00:00' })).toEqual(refused('query.start must be a date and time as YYYY-MM-DD HH:MM:SS (UTC)'));
  });

  it('pages from 1, 10 at a time unless asked, at most 100, with an optional status 0 to 4', () => {
    const period = { start: '2026-11-24 00:00:00', end: '2026-11-25 00:00:00' };
    expect(parsePeriodPage(period)).toEqual({ ok: true, value: expect.objectContaining({ page: 1, size: 10 }) });
    expect(parsePeriodPage({ ...period, page: '3', size: '100', status: '4' })).toEqual({
      ok: true,
      value: expect.objectContaining({ page: 3, size: 100, status: 4 }),
    });
    expect(parsePeriodPage({ ...period, size: '101' })).toEqual(refused('size must be less than or equal to 100'));
    expect(parsePeriodPage({ ...period, page: '0', size: '-1', status: '9' })).toEqual(
      refused('query.page must be a positive integer. query.size must be a positive integer. query.status must be one of the following values: 0, 1, 2, 3, 4'),
    );
  });

  it('looks a payout up by exactly one of id and transaction_id', () => {
    expect(parseLookup({ id: '42' })).toEqual({ ok: true, value: { id: 42 } });
    expect(parseLookup({ transaction_id: 'saque-1' })).toEqual({ ok: true, value: { transaction_id: 'saque-1' } });
    expect(parseLookup({})).toEqual(refused('one of id, transaction_id is required'));
    expect(parseLookup({ id: '1', transaction_id: 'x' })).toEqual(refused('please provide only one of id, transaction_id'));
    expect(parseLookup({ id: '1.5' })).toEqual(refused('query.id must be a positive integer'));
    // An empty value counts as absent (oneIdentifier); whitespace is a value.
    expect(parseLookup({ id: '', transaction_id: 'saque-1' })).toEqual({ ok: true, value: { transaction_id: 'saque-1' } });
    expect(parseLookup({ id: '42', transaction_id: '' })).toEqual({ ok: true, value: { id: 42 } });
    expect(parseLookup({ id: '', transaction_id: '' })).toEqual(refused('one of id, transaction_id is required'));
    expect(parseLookup({ id: ' ', transaction_id: 'saque-1' })).toEqual(refused('please provide only one of id, transaction_id'));
  });

  it('takes a customer by a valid CPF or CNPJ, digits only', () => {
    expect(parseCustomer({ document_number: '52998224725' })).toEqual({ ok: true, value: '52998224725' });
    expect(parseCustomer({ document_number: '11222333000181' })).toEqual({ ok: true, value: '11222333000181' });
    expect(parseCustomer({ document_number: '52998224724' })).toEqual(refused('document_number is invalid'));
    expect(parseCustomer({})).toEqual(refused('query.document_number is a required field'));
  });
});
