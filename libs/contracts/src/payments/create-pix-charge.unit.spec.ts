import { validateCreatePixCharge } from './create-pix-charge';
import { ActivationPaidDataV1, PixChargeRecordData, pixChargeRecordOf, pixChargeResponse, validatePixChargeId } from './pix-charge';

const valid = { transaction_id: 'pedido-1', amount: 150.5, payer: { document_number: '52998224725', name: 'Maria Silva' } };
const problem = (body: unknown) => {
  const result = validateCreatePixCharge(body);
  return result.ok ? undefined : result.refusal.kind === 'validation' && result.refusal.problems.join('. ');
};

describe('POST /v2/pix', () => {
  it('applies the defaults and takes the amount in centavos', () => {
    expect(validateCreatePixCharge(valid)).toEqual({
      ok: true,
      value: { transaction_id: 'pedido-1', amount_centavos: 15050, payer: valid.payer, expires_in: 3600, webhook: null, description: null },
    });
    const full = {
      ...valid,
      payer: { document_number: '11222333000181', name: 'Padaria' },
      expires_in: 86400,
      webhook: 'https://shop.example.com/pix',
      description: 'Pedido 1',
    };
    expect(validateCreatePixCharge(full)).toMatchObject({
      ok: true,
      value: { expires_in: 86400, webhook: 'https://shop.example.com/pix', description: 'Pedido 1' },
    });
    expect(validateCreatePixCharge({ ...valid, webhook: null, description: null })).toMatchObject({ ok: true, value: { webhook: null, description: null } });
  });

  it.each([
    [{ transaction_id: undefined }, 'body.transaction_id is a required field'],
    [{ transaction_id: '' }, 'body.transaction_id is a required field'],
    [{ transaction_id: 42 }, 'body.transaction_id must be a string'],
    [{ transaction_id: 'x'.repeat(36) }, 'transaction_id must be at most 35 characters'],
    [{ amount: undefined }, 'body.amount is a required field'],
    [{ amount: 0 }, 'body.amount must be a positive number'],
    [{ amount: -1 }, 'body.amount must be a positive number'],
    [{ amount: '10' }, 'body.amount must be a positive number'],
    [{ amount: 1.005 }, 'body.amount must have at most 2 decimal places'],
    [{ amount: 10_000_000_000 }, 'body.amount must be at most 9999999999.99'],
    [{ payer: undefined }, 'body.payer is a required field'],
    [{ payer: 'Maria' }, 'body.payer must be an object'],
    [{ payer: [] }, 'body.payer must be an object'],
    [{ payer: { name: 'Maria' } }, 'body.payer.document_number is a required field'],
    [{ payer: { document_number: '52998224724', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    [{ payer: { document_number: '529.982.247-25', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    [{ payer: { document_number: '11222333000180', name: 'Maria' } }, 'body.payer.document_number is invalid'],
    [{ payer: { document_number: '52998224725' } }, 'body.payer.name is a required field'],
    [{ payer: { document_number: '52998224725', name: '' } }, 'body.payer.name is a required field'],
    [{ payer: { document_number: '52998224725', name: 'x'.repeat(101) } }, 'body.payer.name must be a string of at most 100 characters'],
    [{ payer: { document_number: '52998224725', name: 7 } }, 'body.payer.name must be a string of at most 100 characters'],
    [{ expires_in: 0 }, 'body.expires_in must be an integer between 1 and 86400'],
    [{ expires_in: 86401 }, 'body.expires_in must be an integer between 1 and 86400'],
    [{ expires_in: 1.5 }, 'body.expires_in must be an integer between 1 and 86400'],
    [{ expires_in: '60' }, 'body.expires_in must be an integer between 1 and 86400'],
    [{ expires_in: null }, 'body.expires_in must be an integer between 1 and 86400'],
    [{ webhook: 'ftp://shop.example.com' }, 'body.webhook must be a URL of at most 255 characters'],
    [{ webhook: `https://shop.example.com/${'x'.repeat(240)}` }, 'body.webhook must be a URL of at most 255 characters'],
    [{ description: 'x'.repeat(141) }, 'body.description must be a string of at most 140 characters'],
    [{ description: 5 }, 'body.description must be a string of at most 140 characters'],
    [{ extra: 1, other: 2 }, '`extra, other` is not a field of this endpoint'],
    [{ payer: { document_number: '52998224725', name: 'Maria', email: 'm@example.com' } }, '`payer.email` is not a field of this endpoint'],
  ])('%j → %s', (change, message) => {
    expect(problem({ ...valid, ...change })).toBe(message);
  });

  it('gives every field problem in one message, in field order', () => {
    expect(problem({})).toBe('body.transaction_id is a required field. body.amount is a required field. body.payer is a required field');
    expect(problem({ ...valid, amount: 0, expires_in: 0, description: 5 })).toBe(
      'body.amount must be a positive number. body.expires_in must be an integer between 1 and 86400. body.description must be a string of at most 140 characters',
    );
  });

  it('is refused whole when not an object', () => {
    expect(problem([])).toBe('body must be a JSON object');
    expect(problem(null)).toBe('body must be a JSON object');
  });
});

describe('the Pix charge record', () => {
  const record: PixChargeRecordData = {
    id: 7,
    transaction_id: 'pedido-1',
    amount_centavos: 15050,
    status: 'PENDING',
    provider: 'PROVIDER_A',
    payer: { document_number: '52998224725', name: 'Maria Silva' },
    description: 'Pedido 1',
    webhook: 'https://shop.example.com/pix',
    pix_copy_paste: '000201...',
    expires_at: '2026-11-24T13:00:00.000Z',
    created_at: '2026-11-24T12:00:00.000Z',
    paid_at: null,
    bank: { txid: 'PIXAUTOCS00000000000000000007', location: '127.0.0.1:4010/qr/v2/abc' },
    e2e_id: null,
    origin: null,
  };

  it('is shown as GET shows it: reais, no bank details', () => {
    expect(pixChargeResponse(record)).toEqual({
      id: 7,
      transaction_id: 'pedido-1',
      amount: 150.5,
      status: 'PENDING',
      provider: 'PROVIDER_A',
      payer: { document_number: '52998224725', name: 'Maria Silva' },
      description: 'Pedido 1',
      webhook: 'https://shop.example.com/pix',
      pix_copy_paste: '000201...',
      expires_at: '2026-11-24T13:00:00.000Z',
      created_at: '2026-11-24T12:00:00.000Z',
      paid_at: null,
      dispute: null,
    });
  });

  it('reads the first activation payload (version 1) as a paid record', () => {
    const v1: ActivationPaidDataV1 = {
      id: 3,
      transaction_id: 'plano-ativacao',
      amount_centavos: 4000,
      provider: 'PROVIDER_B',
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:05:00.000Z',
      origin: { recurrence_id: 'r1', activation_charge_id: 'c1' },
    };
    expect(pixChargeRecordOf(v1)).toEqual({
      ...v1,
      status: 'PAID',
      payer: null,
      description: null,
      webhook: null,
      pix_copy_paste: null,
      expires_at: null,
      bank: null,
      e2e_id: null,
    });
    expect(pixChargeRecordOf({ charge: record })).toBe(record);
  });

  it('takes a path id that is a positive integer', () => {
    expect(validatePixChargeId('12')).toEqual({ ok: true, value: 12 });
    for (const bad of ['0', '-1', 'abc', '1.5', '01', undefined]) {
      expect(validatePixChargeId(bad)).toEqual({ ok: false, refusal: { kind: 'validation', problems: ['params.id must be a positive integer'] } });
    }
  });
});
