import { validateBody, validateQuery } from '../validation';
import { GetLimitQuery, SET_LIMIT_FIELDS, SetLimitRequest } from './limit.dto';

const CPF = '52998224725';
const messageOf = (body: unknown): string | undefined => {
  const result = validateBody(SetLimitRequest, body, SET_LIMIT_FIELDS);
  return result.ok ? undefined : result.refusal.kind === 'validation' ? result.refusal.problems.join('. ') : 'not validation';
};

describe('SetLimitRequest', () => {
  it('accepts an amount limit and a quantity limit', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount: 150.5, details: 'risk review' })).toBeUndefined();
    expect(messageOf({ document_number: CPF, type: 'cashout', mechanism: 'quantity', quantity: 3 })).toBeUndefined();
  });

  it.each([0, -1, '10', null, true])('refuses amount %p with the spec message', (amount) => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount })).toBe('body.amount must be a positive number');
  });

  it('requires amount when the mechanism is amount', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount' })).toBe('body.amount must be a positive number');
  });

  it('refuses centavo fractions', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount: 10.555 })).toBe('body.amount must have at most 2 decimal places');
  });

  it.each([1e10, 1e20, Number.MAX_VALUE])('refuses amount %p as too large, not as decimals', (amount) => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount })).toBe('body.amount must be at most 9999999999.99');
  });

  it('takes the largest amount Pix settles', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount: 9_999_999_999.99 })).toBeUndefined();
  });

  it.each(['CASHIN', 'pix', '', 1])('refuses type %p with the spec message', (type) => {
    expect(messageOf({ document_number: CPF, type, mechanism: 'quantity', quantity: 1 })).toBe('body.type must be one of cashin or cashout');
  });

  it('names every problem in one message, in field order', () => {
    expect(messageOf({ document_number: '123', type: 'x', mechanism: 'amount', amount: -5 })).toBe(
      'body.document_number is invalid. body.type must be one of cashin or cashout. body.amount must be a positive number',
    );
  });

  it('reports missing fields as required', () => {
    expect(messageOf({})).toBe('body.document_number is a required field. body.type is a required field. body.mechanism is a required field');
  });

  it.each([0, 1.5, -2, '3'])('refuses quantity %p', (quantity) => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'quantity', quantity })).toBe('body.quantity must be a positive integer');
  });

  it('caps quantity at what the read model stores', () => {
    const base = { document_number: CPF, type: 'cashin', mechanism: 'quantity' };
    expect(messageOf({ ...base, quantity: 2147483647 })).toBeUndefined();
    expect(messageOf({ ...base, quantity: 2147483648 })).toBe('body.quantity must be at most 2147483647');
  });

  it('refuses the value of the other mechanism', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'quantity', quantity: 2, amount: 10 })).toBe(
      'body.amount is only accepted when mechanism is amount',
    );
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'amount', amount: 10, quantity: 2 })).toBe(
      'body.quantity is only accepted when mechanism is quantity',
    );
  });

  it('takes a CPF or a CNPJ, numeric or alphanumeric', () => {
    for (const document_number of [CPF, '11222333000181', '12ABC34501DE35']) {
      expect(messageOf({ document_number, type: 'cashin', mechanism: 'quantity', quantity: 1 })).toBeUndefined();
    }
  });

  it('refuses punctuation, lowercase and a bad check digit', () => {
    for (const document_number of ['529.982.247-25', '52998224724', 52998224725, '12.ABC.345/01DE-35', '12abc34501de35', '12ABC34501DE36']) {
      expect(messageOf({ document_number, type: 'cashin', mechanism: 'quantity', quantity: 1 })).toBe('body.document_number is invalid');
    }
  });

  it('caps details at 4096 characters', () => {
    const base = { document_number: CPF, type: 'cashin', mechanism: 'quantity', quantity: 1 };
    expect(messageOf({ ...base, details: 'x'.repeat(4096) })).toBeUndefined();
    expect(messageOf({ ...base, details: 'x'.repeat(4097) })).toBe('body.details must be a string of at most 4096 characters');
  });

  it('refuses unknown fields by name, before anything else', () => {
    expect(messageOf({ document_number: CPF, type: 'cashin', mechanism: 'quantity', quantity: 1, foo: 1, bar: 2 })).toBe(
      '`foo, bar` is not a field of this endpoint',
    );
  });

  it('refuses a body that is not an object', () => {
    expect(messageOf([1])).toBe('body must be a JSON object');
  });
});

describe('GetLimitQuery', () => {
  const check = (query: Record<string, string>) => {
    const result = validateQuery(GetLimitQuery, query);
    return result.ok ? undefined : result.refusal.kind === 'validation' && result.refusal.problems.join('. ');
  };
  it('validates document and type', () => {
    expect(check({ document_number: CPF, type: 'cashout' })).toBeUndefined();
    expect(check({ document_number: '1', type: 'cashout' })).toBe('query.document_number is invalid');
    expect(check({ type: 'cashout' })).toBe('query.document_number is invalid');
    expect(check({ document_number: CPF })).toBe('query.type must be one of cashin or cashout');
  });
});
