import { joinProblems, Messages, Refusal } from '@pixauto/errors';
import { Validated } from '../validation';
import { validateCancelSolicitation, validateCreateSolicitation } from './solicitation';

const CPF = '52998224725';
const CNPJ = '11222333000181';
const destination = { agency: '0001', account: '123456789-0', document_number: CPF, ispb: '18236120' };
const valid = (): Record<string, unknown> => ({ recurrence_id: 'rec_123', expires_at: '2026-03-12T23:59:59-03:00', destination });
const withDestination = (fields: Record<string, unknown>) => ({ ...valid(), destination: { ...destination, ...fields } });

const problems = (refusal: Refusal) => (refusal.kind === 'validation' ? joinProblems(refusal.problems) : 'not validation');
const messageOf = (result: Validated<object>): string | undefined => (result.ok ? undefined : problems(result.refusal));
const create = (body: unknown) => messageOf(validateCreateSolicitation(body));
const cancel = (body: unknown) => messageOf(validateCancelSolicitation(body));

describe('validateCreateSolicitation', () => {
  it('accepts a destination by CPF or CNPJ and returns it', () => {
    const result = validateCreateSolicitation(valid());
    expect(result.ok && result.value).toMatchObject(valid());
    expect(create(withDestination({ document_number: CNPJ, agency: '1', account: 'x'.repeat(20) }))).toBeUndefined();
    expect(create({ ...valid(), expires_at: '2026-03-12T12:00:00.000Z' })).toBeUndefined();
  });

  it('refuses unknown fields by name, nested ones by their path', () => {
    expect(create({ ...valid(), debtor: {}, foo: 1 })).toBe('`debtor, foo` is not a field of this endpoint');
    expect(create(withDestination({ bank_code: '001' }))).toBe('`destination.bank_code` is not a field of this endpoint');
  });

  it('refuses a body that is not an object', () => {
    expect(create('rec_123')).toBe('body must be a JSON object');
  });

  it('reports every missing field, in field order', () => {
    expect(create({})).toBe('body.recurrence_id is a required field. body.expires_at is a required field. body.destination is a required field');
    expect(create({ ...valid(), destination: {} })).toBe(
      'body.destination.agency is a required field. body.destination.account is a required field. ' +
        'body.destination.document_number is a required field. body.destination.ispb is a required field',
    );
  });

  it.each([
    ['recurrence_id', '', 'body.recurrence_id is a required field'],
    ['recurrence_id', 123, 'body.recurrence_id must be a string'],
    ['expires_at', '2026-03-12', 'body.expires_at must be an ISO 8601 date-time with a time zone'],
    ['expires_at', '2026-03-12T23:59:59', 'body.expires_at must be an ISO 8601 date-time with a time zone'],
    ['expires_at', 1773370799, 'body.expires_at must be an ISO 8601 date-time with a time zone'],
    ['destination', '0001/123456', 'body.destination must be an object'],
    ['destination', [destination], 'body.destination must be an object'],
  ])('%s = %p: %s', (field, value, message) => {
    expect(create({ ...valid(), [field]: value })).toBe(message);
  });

  it.each([
    [{ agency: '00011' }, 'body.destination.agency must be a string of at most 4 characters'],
    [{ agency: 1 }, 'body.destination.agency must be a string of at most 4 characters'],
    [{ account: 'x'.repeat(21) }, 'body.destination.account must be a string of at most 20 characters'],
    [{ account: 1234 }, 'body.destination.account must be a string of at most 20 characters'],
    [{ document_number: '529.982.247-25' }, 'body.destination.document_number is invalid'],
    [{ document_number: '11222333000180' }, 'body.destination.document_number is invalid'],
    [{ ispb: '1823612' }, 'body.destination.ispb must be exactly 8 characters'],
    [{ ispb: '182361200' }, 'body.destination.ispb must be exactly 8 characters'],
    [{ ispb: '1823612a' }, 'body.destination.ispb must be exactly 8 characters'],
    [{ ispb: 18236120 }, 'body.destination.ispb must be exactly 8 characters'],
  ])('destination %p: %s', (fields, message) => {
    expect(create(withDestination(fields))).toBe(message);
  });
});

describe('validateCancelSolicitation', () => {
  it('accepts only CANCELLED', () => {
    expect(cancel({ status: 'CANCELLED' })).toBeUndefined();
    for (const status of ['SENT', 'cancelled', '', 1]) {
      expect(cancel({ status })).toBe('body.status must be one of the following values: CANCELLED');
    }
  });

  it('requires status, also when no body is sent', () => {
    expect(cancel({})).toBe('body.status is a required field');
    expect(cancel({ status: null })).toBe('body.status is a required field');
    expect(cancel(undefined)).toBe('body.status is a required field');
  });

  it('refuses unknown fields', () => {
    expect(cancel({ status: 'CANCELLED', reason: 'x' })).toBe('`reason` is not a field of this endpoint');
  });
});

describe('solicitation messages the services produce (worded as the specification words them, character for character)', () => {
  it.each([
    [Messages.solicitations.notFound, 'Solicitation not found'],
    [Messages.solicitations.recurrenceNotFound, 'Recurrence not found'],
  ])('%s', (message, spec) => expect(message).toBe(spec));
});
