import { joinProblems } from '@pixauto/errors';
import { validateUpdateRecurrence } from './update-recurrence';

const TODAY = '2026-03-10';
const CHANGEABLE = '`debtor_name`, `start_date`, `status`, `webhook`, `business_day_adjust`, `charge_lead_days`';

const messageOf = (body: unknown): string | undefined => {
  const result = validateUpdateRecurrence(body, TODAY);
  return result.ok ? undefined : result.refusal.kind === 'validation' ? joinProblems(result.refusal.problems) : 'not validation';
};
const valueOf = (body: unknown) => {
  const result = validateUpdateRecurrence(body, TODAY);
  if (!result.ok) throw new Error(JSON.stringify(result.refusal));
  return result.value;
};

describe('validateUpdateRecurrence: what may be changed', () => {
  it('accepts each changeable field and returns it, without the day it was checked against', () => {
    const value = valueOf({
      debtor_name: 'x'.repeat(140),
      start_date: '2026-03-11',
      status: 'CANCELLED',
      webhook: 'https://merchant.example.com/new-hook',
      business_day_adjust: false,
      charge_lead_days: 10,
    });
    expect({ ...value }).toEqual({
      debtor_name: 'x'.repeat(140),
      start_date: '2026-03-11',
      status: 'CANCELLED',
      webhook: 'https://merchant.example.com/new-hook',
      business_day_adjust: false,
      charge_lead_days: 10,
    });
    expect(value).not.toHaveProperty('today');
  });

  it('tells clearing the webhook (null or "") from leaving it alone (absent)', () => {
    expect(valueOf({ webhook: null }).webhook).toBeNull();
    expect(valueOf({ webhook: '' }).webhook).toBeNull();
    expect(valueOf({ status: 'CANCELLED' }).webhook).toBeUndefined();
  });

  it('asks for at least one changeable field', () => {
    const message = `body must set at least one changeable field: ${CHANGEABLE}`;
    expect(messageOf({})).toBe(message);
    expect(messageOf(undefined)).toBe(message);
  });

  it('refuses a body that is not an object', () => {
    expect(messageOf(null)).toBe('body must be a JSON object');
    expect(messageOf([{ status: 'CANCELLED' }])).toBe('body must be a JSON object');
  });

  it('refuses fields fixed at creation by name, with the way to change them', () => {
    expect(messageOf({ amount: 59.9 })).toBe(
      '`amount` cannot be changed after a recurrence is created. To change it, cancel this recurrence and create a new one ' +
        'with a new transaction_id, which the payer authorizes again',
    );
    expect(messageOf({ status: 'CANCELLED', periodicity: 'ANNUAL', end_date: '2027-01-01', contract: 'c-1' })).toBe(
      '`periodicity, end_date, contract` cannot be changed after a recurrence is created. To change them, cancel this recurrence ' +
        'and create a new one with a new transaction_id, which the payer authorizes again',
    );
    for (const field of ['retry_policy', 'object', 'debtor', 'schedule', 'location_id']) {
      expect(messageOf({ [field]: 1 })).toMatch(new RegExp(`^\`${field}\` cannot be changed after a recurrence is created\\. `));
    }
  });

  it('refuses unknown fields and lists the changeable ones', () => {
    expect(messageOf({ foo: 1, debtor_email: 'a@b.com' })).toBe(`\`foo, debtor_email\` is not a field of this endpoint. Changeable: ${CHANGEABLE}`);
    expect(messageOf({ webhook: null, today: '2020-01-01' })).toBe(`\`today\` is not a field of this endpoint. Changeable: ${CHANGEABLE}`);
  });

  it('names fixed fields first, then unknown ones, with a single period between the two', () => {
    expect(messageOf({ foo: 1, amount: 10, bar: 2 })).toBe(
      '`amount` cannot be changed after a recurrence is created. To change it, cancel this recurrence and create a new one ' +
        `with a new transaction_id, which the payer authorizes again. \`foo, bar\` is not a field of this endpoint. Changeable: ${CHANGEABLE}`,
    );
  });
});

describe('validateUpdateRecurrence: field rules', () => {
  it.each([
    [{ status: 'ACTIVE' }, 'body.status must be one of the following values: CANCELLED'],
    [{ status: 'cancelled' }, 'body.status must be one of the following values: CANCELLED'],
    [{ status: null }, 'body.status must be one of the following values: CANCELLED'],
    [{ start_date: TODAY }, 'body.start_date must be after today (Brasília time)'],
    [{ start_date: '2025-12-31' }, 'body.start_date must be after today (Brasília time)'],
    [{ start_date: '2026-03-1' }, 'body.start_date must be YYYY-MM-DD'],
    [{ start_date: null }, 'body.start_date must be YYYY-MM-DD'],
    [{ start_date: '2026-04-31' }, 'body.start_date is not a valid date'],
    [{ debtor_name: 'x'.repeat(141) }, 'body.debtor_name must be at most 140 characters'],
    [{ debtor_name: '' }, 'body.debtor_name must not be empty'],
    [{ debtor_name: 7 }, 'body.debtor_name must be a string'],
    [{ webhook: 'not a url' }, 'body.webhook must be a URL of at most 255 characters, or null or "" to clear it'],
    [{ webhook: `https://example.com/${'a'.repeat(236)}` }, 'body.webhook must be a URL of at most 255 characters, or null or "" to clear it'],
    [{ webhook: false }, 'body.webhook must be a URL of at most 255 characters, or null or "" to clear it'],
    [{ business_day_adjust: 'true' }, 'body.business_day_adjust must be true or false'],
    [{ business_day_adjust: null }, 'body.business_day_adjust must be true or false'],
    [{ charge_lead_days: 2 }, 'body.charge_lead_days must be an integer between 3 and 10'],
    [{ charge_lead_days: 11 }, 'body.charge_lead_days must be an integer between 3 and 10'],
    [{ charge_lead_days: '7' }, 'body.charge_lead_days must be an integer between 3 and 10'],
  ])('%p: %s', (body, message) => {
    expect(messageOf(body)).toBe(message);
  });

  it('names every problem in one message, in field order', () => {
    expect(messageOf({ charge_lead_days: 1, status: 'PAUSED', start_date: TODAY })).toBe(
      'body.start_date must be after today (Brasília time). body.status must be one of the following values: CANCELLED. ' +
        'body.charge_lead_days must be an integer between 3 and 10',
    );
  });
});
