import { joinProblems, Messages } from '@pixauto/errors';
import { validateCreateRecurrence } from './create-recurrence';

const TODAY = '2026-03-10';
const CPF = '52998224725';
const CNPJ = '11222333000181';

const minimal = (): Record<string, unknown> => ({
  transaction_id: 'assinatura-0001',
  debtor: { document_number: CPF, name: 'Maria Souza' },
  schedule: { start_date: '2026-03-11', periodicity: 'MONTHLY' },
  amount: 49.9,
  retry_policy: 'NOT_ALLOWED',
});
const withField = (field: string, value: unknown) => ({ ...minimal(), [field]: value });
const withDebtor = (fields: Record<string, unknown>) => withField('debtor', { document_number: CPF, name: 'Maria Souza', ...fields });
const withSchedule = (fields: Record<string, unknown>) => withField('schedule', { start_date: '2026-03-11', periodicity: 'MONTHLY', ...fields });
const address = { street: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', zip_code: '01310100' };
// 140 characters with maria.souza@ in front (a label is at most 63 characters, a local part at most 64).
const longDomain = `${'a'.repeat(60)}.${'b'.repeat(60)}.com.br`;
const withAddress = (fields: Record<string, unknown>) => withDebtor({ address: { ...address, ...fields } });

const messageOf = (body: unknown): string | undefined => {
  const result = validateCreateRecurrence(body, TODAY);
  return result.ok ? undefined : result.refusal.kind === 'validation' ? joinProblems(result.refusal.problems) : 'not validation';
};
const valueOf = (body: unknown) => {
  const result = validateCreateRecurrence(body, TODAY);
  if (!result.ok) throw new Error(JSON.stringify(result.refusal));
  return result.value;
};

describe('validateCreateRecurrence: accepted requests', () => {
  it('applies the defaults and gives the amount in centavos', () => {
    const value = valueOf(minimal());
    expect(value).toMatchObject({ business_day_adjust: false, charge_lead_days: 5, webhook: null, amount: 49.9, amount_centavos: 4990 });
    expect(value.schedule).toEqual({ start_date: '2026-03-11', end_date: null, periodicity: 'MONTHLY' });
    expect(value.activation_amount).toBeUndefined();
    expect(value.activation_expires_in).toBeUndefined();
    expect(value.activation_amount_centavos).toBeUndefined();
  });

  it('keeps every optional field sent, and a CNPJ debtor', () => {
    const value = valueOf({
      ...minimal(),
      object: 'Plano mensal',
      debtor: { document_number: CNPJ, name: 'Empresa Ltda', email: 'financeiro@empresa.com.br', address },
      schedule: { start_date: '2026-03-11', end_date: '2027-03-11', periodicity: 'ANNUAL' },
      retry_policy: 'ALLOWS_3R_7D',
      business_day_adjust: true,
      charge_lead_days: 10,
      webhook: 'https://merchant.example.com/hooks/pix',
      activation_amount: 0.29,
      activation_expires_in: 86400,
      location_id: 7,
    });
    expect(value).toMatchObject({
      object: 'Plano mensal',
      debtor: { document_number: CNPJ, email: 'financeiro@empresa.com.br', address },
      schedule: { end_date: '2027-03-11', periodicity: 'ANNUAL' },
      business_day_adjust: true,
      charge_lead_days: 10,
      webhook: 'https://merchant.example.com/hooks/pix',
      activation_amount: 0.29,
      activation_amount_centavos: 29,
      activation_expires_in: 86400,
      location_id: 7,
    });
    expect(value.schedule).not.toHaveProperty('today');
  });

  it('gives the activation 3600 seconds by default, and drops activation_expires_in without an activation', () => {
    expect(valueOf(withField('activation_amount', 10)).activation_expires_in).toBe(3600);
    expect(valueOf(withField('activation_expires_in', 600)).activation_expires_in).toBeUndefined();
  });

  it('accepts null for the open-ended end_date and for no webhook, and a localhost webhook for the sandbox', () => {
    expect(valueOf(withSchedule({ end_date: null })).schedule.end_date).toBeNull();
    expect(valueOf(withField('webhook', null)).webhook).toBeNull();
    expect(messageOf(withField('webhook', 'http://localhost:4000/hook'))).toBeUndefined();
  });

  it('accepts the limits themselves', () => {
    expect(messageOf(withField('transaction_id', 'x'.repeat(35)))).toBeUndefined();
    expect(messageOf(withField('object', 'x'.repeat(35)))).toBeUndefined();
    expect(messageOf(withDebtor({ name: 'x'.repeat(100) }))).toBeUndefined();
    expect(messageOf(withDebtor({ email: `maria.souza@${longDomain}` }))).toBeUndefined();
    expect(messageOf(withAddress({ street: 'x'.repeat(200), city: 'y'.repeat(200) }))).toBeUndefined();
    expect(messageOf(withField('charge_lead_days', 3))).toBeUndefined();
    expect(messageOf(withField('webhook', `https://example.com/${'a'.repeat(235)}`))).toBeUndefined();
  });

  it('refuses a today that is not a date: a bug in the caller, not in the request', () => {
    expect(() => validateCreateRecurrence(minimal(), '10/03/2026')).toThrow(RangeError);
  });
});

describe('validateCreateRecurrence: fields the endpoint does not have', () => {
  it('refuses a body that is not an object', () => {
    expect(messageOf([minimal()])).toBe('body must be a JSON object');
    expect(messageOf(undefined)).toBe('body must be a JSON object');
  });

  it('names unknown fields, nested ones by their path, in the order sent', () => {
    expect(messageOf({ ...minimal(), foo: 1, bar: 2 })).toBe('`foo, bar` is not a field of this endpoint');
    expect(messageOf({ ...withDebtor({ phone: '11999999999', address: { ...address, country: 'BR' } }), today: TODAY })).toBe(
      '`debtor.phone, debtor.address.country, today` is not a field of this endpoint',
    );
    expect(messageOf(withSchedule({ today: '2020-01-01' }))).toBe('`schedule.today` is not a field of this endpoint');
    expect(messageOf(JSON.parse('{"constructor": 1, "__proto__": {}}'))).toBe('`constructor, __proto__` is not a field of this endpoint');
  });

  it('points the old contract field to transaction_id, before other unknown fields', () => {
    expect(messageOf(withField('contract', 'c-1'))).toBe('`contract` is not a field of this endpoint anymore -- use `transaction_id`');
    expect(messageOf({ foo: 1, ...withField('contract', 'c-1') })).toBe(
      '`contract` is not a field of this endpoint anymore -- use `transaction_id`. `foo` is not a field of this endpoint',
    );
  });

  it('refuses unknown fields before any rule runs', () => {
    expect(messageOf({ contract: 'c-1' })).toBe('`contract` is not a field of this endpoint anymore -- use `transaction_id`');
  });
});

describe('validateCreateRecurrence: field rules', () => {
  it.each([
    ['transaction_id', undefined, 'body.transaction_id is a required field'],
    ['transaction_id', '', 'body.transaction_id is a required field'],
    ['transaction_id', 'x'.repeat(36), 'transaction_id must be at most 35 characters'],
    ['transaction_id', 123, 'body.transaction_id must be a string'],
    ['object', 'x'.repeat(36), 'body.object must be at most 35 characters'],
    ['object', 5, 'body.object must be a string'],
    ['debtor', undefined, 'body.debtor is a required field'],
    ['debtor', 'Maria', 'body.debtor must be an object'],
    ['debtor', [], 'body.debtor must be an object'],
    ['schedule', undefined, 'body.schedule is a required field'],
    ['schedule', '2026-03-11', 'body.schedule must be an object'],
    ['amount', undefined, 'amount is required: variable-amount mandates are not supported'],
    ['amount', null, 'amount is required: variable-amount mandates are not supported'],
    ['amount', 0, 'body.amount must be a positive number'],
    ['amount', -10, 'body.amount must be a positive number'],
    ['amount', '49.90', 'body.amount must be a positive number'],
    ['amount', 49.999, 'body.amount must have at most 2 decimal places'],
    ['retry_policy', undefined, 'body.retry_policy is a required field'],
    ['retry_policy', 'ALLOWS_3R', 'body.retry_policy must be one of the following values: NOT_ALLOWED, ALLOWS_3R_7D'],
    ['business_day_adjust', 'true', 'body.business_day_adjust must be true or false'],
    ['business_day_adjust', 1, 'body.business_day_adjust must be true or false'],
    ['business_day_adjust', null, 'body.business_day_adjust must be true or false'],
    ['charge_lead_days', 2, 'body.charge_lead_days must be an integer between 3 and 10'],
    ['charge_lead_days', 11, 'body.charge_lead_days must be an integer between 3 and 10'],
    ['charge_lead_days', 4.5, 'body.charge_lead_days must be an integer between 3 and 10'],
    ['charge_lead_days', '5', 'body.charge_lead_days must be an integer between 3 and 10'],
    ['webhook', 'merchant.example.com/hook', 'body.webhook must be a URL of at most 255 characters'],
    ['webhook', 'ftp://merchant.example.com/hook', 'body.webhook must be a URL of at most 255 characters'],
    ['webhook', 'https://', 'body.webhook must be a URL of at most 255 characters'],
    ['webhook', '', 'body.webhook must be a URL of at most 255 characters'],
    ['webhook', `https://example.com/${'a'.repeat(236)}`, 'body.webhook must be a URL of at most 255 characters'],
    ['activation_amount', 0, 'body.activation_amount must be a positive number'],
    ['activation_amount', null, 'body.activation_amount must be a positive number'],
    ['activation_amount', 1.005, 'body.activation_amount must have at most 2 decimal places'],
    ['activation_expires_in', 0, 'body.activation_expires_in must be an integer between 1 and 86400'],
    ['activation_expires_in', 86401, 'body.activation_expires_in must be an integer between 1 and 86400'],
    ['activation_expires_in', 60.5, 'body.activation_expires_in must be an integer between 1 and 86400'],
    ['location_id', 0, 'body.location_id must be a positive integer'],
    ['location_id', 2.5, 'body.location_id must be a positive integer'],
    ['location_id', '7', 'body.location_id must be a positive integer'],
    ['location_id', 1e20, 'body.location_id must be a positive integer'],
  ])('%s = %p: %s', (field, value, message) => {
    const body = minimal();
    if (value === undefined) delete body[field];
    else body[field] = value;
    expect(messageOf(body)).toBe(message);
  });

  it.each([
    [{ document_number: undefined }, 'body.debtor.document_number is a required field'],
    [{ document_number: '529.982.247-25' }, 'body.debtor.document_number is invalid'],
    [{ document_number: '52998224724' }, 'body.debtor.document_number is invalid'],
    [{ document_number: '11222333000180' }, 'body.debtor.document_number is invalid'],
    [{ document_number: '5299822472' }, 'body.debtor.document_number is invalid'],
    [{ document_number: 52998224725 }, 'body.debtor.document_number is invalid'],
    [{ name: undefined }, 'body.debtor.name is a required field'],
    [{ name: '' }, 'body.debtor.name is a required field'],
    [{ name: 42 }, 'body.debtor.name must be a string'],
    [{ name: 'x'.repeat(101) }, 'body.debtor.name must be at most 100 characters'],
    [{ email: 'maria.example.com' }, 'body.debtor.email must be a valid email of at most 140 characters'],
    [{ email: `maria.souzaa@${longDomain}` }, 'body.debtor.email must be a valid email of at most 140 characters'],
    [{ address: 'Av. Paulista, 1000' }, 'body.debtor.address must be an object'],
    [{ address: null }, 'body.debtor.address must be an object'],
  ])('debtor %p: %s', (fields, message) => {
    const debtor: Record<string, unknown> = { document_number: CPF, name: 'Maria Souza', ...fields };
    Object.keys(debtor).forEach((key) => debtor[key] === undefined && delete debtor[key]);
    expect(messageOf(withField('debtor', debtor))).toBe(message);
  });

  it('requires all four address fields once address is sent', () => {
    expect(messageOf(withDebtor({ address: {} }))).toBe(
      'body.debtor.address.street is a required field. body.debtor.address.city is a required field. ' +
        'body.debtor.address.state is a required field. body.debtor.address.zip_code is a required field',
    );
  });

  it.each([
    [{ street: 'x'.repeat(201) }, 'body.debtor.address.street must be at most 200 characters'],
    [{ street: 10 }, 'body.debtor.address.street must be a string'],
    [{ city: 'y'.repeat(201) }, 'body.debtor.address.city must be at most 200 characters'],
    [{ city: false }, 'body.debtor.address.city must be a string'],
    [{ state: 'sp' }, 'body.debtor.address.state must be 2 upper-case letters'],
    [{ state: 'SPX' }, 'body.debtor.address.state must be 2 upper-case letters'],
    [{ zip_code: '01310-100' }, 'zip_code must be 8 digits'],
    [{ zip_code: '0131010' }, 'zip_code must be 8 digits'],
    [{ zip_code: 1310100 }, 'zip_code must be 8 digits'],
  ])('address %p: %s', (fields, message) => {
    expect(messageOf(withAddress(fields))).toBe(message);
  });

  it.each([
    [{ start_date: undefined }, 'body.schedule.start_date is a required field'],
    [{ start_date: TODAY }, 'body.schedule.start_date must be after today (Brasília time)'],
    [{ start_date: '2026-03-09' }, 'body.schedule.start_date must be after today (Brasília time)'],
    [{ start_date: '2026-3-11' }, 'body.schedule.start_date must be YYYY-MM-DD'],
    [{ start_date: '11/03/2026' }, 'body.schedule.start_date must be YYYY-MM-DD'],
    [{ start_date: 20260311 }, 'body.schedule.start_date must be YYYY-MM-DD'],
    [{ start_date: '2026-02-30' }, 'body.schedule.start_date is not a valid date'],
    [{ end_date: '2026-03-11' }, 'body.schedule.end_date must be after schedule.start_date'],
    [{ end_date: '2026-03-01' }, 'body.schedule.end_date must be after schedule.start_date'],
    [{ end_date: '2027-3-11' }, 'body.schedule.end_date must be YYYY-MM-DD'],
    [{ end_date: '2027-02-29' }, 'body.schedule.end_date is not a valid date'],
    [{ periodicity: undefined }, 'body.schedule.periodicity is a required field'],
    [{ periodicity: 'DAILY' }, 'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL'],
    [{ periodicity: 'monthly' }, 'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL'],
  ])('schedule %p: %s', (fields, message) => {
    const schedule: Record<string, unknown> = { start_date: '2026-03-11', periodicity: 'MONTHLY', ...fields };
    Object.keys(schedule).forEach((key) => schedule[key] === undefined && delete schedule[key]);
    expect(messageOf(withField('schedule', schedule))).toBe(message);
  });

  it('reports end_date only on its own rules when start_date is not a date', () => {
    expect(messageOf(withSchedule({ start_date: '2026-02-30', end_date: '2026-01-01' }))).toBe('body.schedule.start_date is not a valid date');
  });

  it('names every problem in one message, in field order', () => {
    expect(
      messageOf({
        transaction_id: 'x'.repeat(36),
        debtor: { document_number: CPF, name: 'x'.repeat(101), address: { ...address, zip_code: '01310-100' } },
        schedule: { start_date: TODAY, end_date: TODAY, periodicity: 'DAILY' },
        retry_policy: 'NOT_ALLOWED',
        business_day_adjust: 'true',
      }),
    ).toBe(
      [
        'transaction_id must be at most 35 characters',
        'body.debtor.name must be at most 100 characters',
        'zip_code must be 8 digits',
        'body.schedule.start_date must be after today (Brasília time)',
        'body.schedule.end_date must be after schedule.start_date',
        'body.schedule.periodicity must be one of the following values: WEEKLY, MONTHLY, QUARTERLY, SEMIANNUAL, ANNUAL',
        'amount is required: variable-amount mandates are not supported',
        'body.business_day_adjust must be true or false',
      ].join('. '),
    );
  });
});

describe('recurrence messages the services produce (worded as the specification words them, character for character)', () => {
  it.each([
    [Messages.recurrences.transactionIdTaken, 'body.transaction_id already exists'],
    [Messages.recurrences.noWallet, 'client has no wallet configured'],
    [Messages.recurrences.notFound, 'Recurrence not found'],
  ])('%s', (message, spec) => expect(message).toBe(spec));
});

describe('amount ceiling (the settlement system takes up to 9999999999.99)', () => {
  it('accepts the largest amount and refuses one centavo more, for both amounts', () => {
    const body = (extra: object) => ({
      transaction_id: 'tx-ceiling',
      debtor: { document_number: '52998224725', name: 'Maria' },
      schedule: { start_date: '2026-12-01', periodicity: 'MONTHLY' },
      amount: 10,
      retry_policy: 'NOT_ALLOWED',
      ...extra,
    });
    const message = (extra: object) => {
      const result = validateCreateRecurrence(body(extra), '2026-11-22');
      return result.ok ? undefined : result.refusal.kind === 'validation' ? result.refusal.problems.join('. ') : 'other';
    };
    expect(message({ amount: 9999999999.99 })).toBeUndefined();
    expect(message({ amount: 10000000000 })).toBe('body.amount must be at most 9999999999.99');
    expect(message({ activation_amount: 10000000000 })).toBe('body.activation_amount must be at most 9999999999.99');
  });
});
