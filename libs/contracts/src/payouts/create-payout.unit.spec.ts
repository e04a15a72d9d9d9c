import { validateCreatePayout } from './create-payout';
import { payoutResponse } from './payout.response';
import { PayoutRecordData } from './payout.events';

const valid = { transaction_id: 'saque-1', amount: 150.5, name: 'Maria Silva', document_number: '52998224725', pix_key: 'maria@example.com' };
const problem = (route: 'pix' | 'account', body: unknown) => {
  const result = validateCreatePayout(route, body);
  return result.ok ? undefined : result.refusal.kind === 'validation' && result.refusal.problems.join('. ');
};

describe('POST /v2/payout/pix and /v2/payout', () => {
  it('takes a Pix key or an account, amounts in centavos', () => {
    expect(validateCreatePayout('pix', valid)).toEqual({
      ok: true,
      value: {
        transaction_id: 'saque-1',
        amount_centavos: 15050,
        name: 'Maria Silva',
        document_number: '52998224725',
        destination: { pix_key: 'maria@example.com' },
        webhook: null,
      },
    });
    const bank = { ispb: '60701190', account_agency: '0001', account_number: '12345-6' };
    const { pix_key: _key, ...withoutKey } = valid;
    expect(validateCreatePayout('account', { ...withoutKey, bank })).toMatchObject({ ok: true, value: { destination: bank } });
  });

  it.each([
    [{}, 'body.transaction_id is a required field. body.amount is a required field. body.name is a required field. body.document_number is a required field'],
    [{ amount: 0.001 }, 'body.amount must have at most 2 decimal places'],
    [{ pix_key: '+15551234567' }, 'body.pix_key must be a Pix key: a CPF, a CNPJ, an e-mail, a phone as +55 and digits, or a random key (UUID)'],
    [{ bank: { ispb: '1', account_agency: '1', account_number: '1' } }, 'body.bank.ispb must be exactly 8 digits'],
    [{ bank: { ispb: '60701190', account_agency: '1', account_number: '1' } }, 'please provide only one of pix_key, bank'],
    [{ pix_key: undefined }, 'one of pix_key, bank is required'],
    [{ extra: 1 }, '`extra` is not a field of this endpoint'],
  ])('%j → %s', (change, message) => {
    const body = Object.keys(change).length === 0 ? {} : { ...valid, ...change };
    expect(problem('pix', body)).toBe(message);
  });

  it('has no pix_key on /v2/payout, and requires bank there', () => {
    expect(problem('account', valid)).toBe('`pix_key` is not a field of this endpoint');
    const { pix_key: _key, ...withoutKey } = valid;
    expect(problem('account', withoutKey)).toBe('body.bank is a required field');
  });

  it('is refused whole when not an object', () => {
    expect(problem('pix', [])).toBe('body must be a JSON object');
  });
});

describe('the payout record', () => {
  const record: PayoutRecordData = {
    id: 7,
    transaction_id: 'saque-1',
    name: 'MARIA SILVA',
    document_number: '52998224725',
    document_type: 'CPF',
    amount_centavos: 15050,
    status: 1,
    pix_key: 'maria@example.com',
    bank: { type: 'PIX', bank_name: 'Itaú Unibanco S.A.', bank_code: '341', ispb: '60701190', account_agency: '0001', account_number: '123456' },
    webhook: 'https://shop.example.com/payouts',
    provider: 'PROVIDER_A',
    created_at: '2026-11-24T12:00:00.000Z',
    paid_at: '2026-11-24T12:00:02.000Z',
    e2e: 'E12345678202611241200abcdefghijk',
    psp_id: 'PIXAUTOS000000000007',
  };

  it('names the bank by id, leaves it out of the period form, and webhook, e2e and psp_id out of the customer form', () => {
    expect(payoutResponse(record)).toEqual({
      id: 7,
      transaction_id: 'saque-1',
      name: 'MARIA SILVA',
      document_number: '52998224725',
      document_type: 'CPF',
      currency: 'BRL',
      amount: 150.5,
      status: 1,
      bank: { type: 'PIX', bank_name: 'Itaú Unibanco S.A.', ispb: '60701190', account_agency: '0001', account_number: '123456' },
      webhook: 'https://shop.example.com/payouts',
      created_at: '2026-11-24T12:00:00.000Z',
      paid_at: '2026-11-24T12:00:02.000Z',
      e2e: 'E12345678202611241200abcdefghijk',
      psp_id: 'PIXAUTOS000000000007',
    });
    const customer = payoutResponse(record, 'customer');
    expect(customer.bank).not.toHaveProperty('bank_name');
    expect(['webhook', 'e2e', 'psp_id'].filter((field) => field in customer)).toEqual([]);
  });

  it('shows paid_at, e2e and psp_id only once known', () => {
    const created = payoutResponse({ ...record, status: 0, paid_at: null, e2e: null, psp_id: null });
    expect(['paid_at', 'e2e', 'psp_id'].filter((field) => field in created)).toEqual([]);
  });
});
