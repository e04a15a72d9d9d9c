import { isGiven, oneIdentifier } from './one-identifier';
import { validatePixChargeQuery } from './payments/pix-charge';
import { validateCreateRefund } from './payments/refund';
import { validateRefundReceiptQuery } from './payments/refund-receipt';
import { validatePayoutReceiptQuery } from './payouts/payout-receipt';

const messages = { required: 'one of id, transaction_id is required', onlyOne: 'please provide only one of id, transaction_id' };
const which = (sent: unknown) => oneIdentifier(sent, ['id', 'transaction_id'], messages);
const REQUIRED = { ok: false, refusal: { kind: 'validation', problems: ['one of id, transaction_id is required'] } };
const ONLY_ONE = { ok: false, refusal: { kind: 'validation', problems: ['please provide only one of id, transaction_id'] } };

describe('exactly one identifier', () => {
  it('names the one given, with the value sent for it (unchecked)', () => {
    expect(which({ id: '12' })).toEqual({ ok: true, value: { key: 'id', value: '12' } });
    expect(which({ transaction_id: 'abc' })).toEqual({ ok: true, value: { key: 'transaction_id', value: 'abc' } });
    expect(which({ id: 12, refund_id: 'r-1' })).toEqual({ ok: true, value: { key: 'id', value: 12 } });
    expect(which({ id: 'abc' })).toEqual({ ok: true, value: { key: 'id', value: 'abc' } });
  });

  it('refuses neither, with the endpoint’s message', () => {
    expect(which({})).toEqual(REQUIRED);
    expect(which({ refund_id: 'r-1' })).toEqual(REQUIRED);
    expect(which(undefined)).toEqual(REQUIRED);
    expect(which(null)).toEqual(REQUIRED);
    expect(which('id=1')).toEqual(REQUIRED);
  });

  it('refuses both, with the endpoint’s message', () => {
    expect(which({ id: '1', transaction_id: 'x' })).toEqual(ONLY_ONE);
    expect(which({ id: 1, transaction_id: 'x' })).toEqual(ONLY_ONE);
  });

  it('counts an empty value as absent: ?id=&transaction_id=abc names the transaction_id', () => {
    expect(which({ id: '', transaction_id: 'abc' })).toEqual({ ok: true, value: { key: 'transaction_id', value: 'abc' } });
    expect(which({ id: '7', transaction_id: '' })).toEqual({ ok: true, value: { key: 'id', value: '7' } });
    expect(which({ id: '', transaction_id: '' })).toEqual(REQUIRED);
    expect(which({ id: undefined, transaction_id: 'abc' })).toEqual({ ok: true, value: { key: 'transaction_id', value: 'abc' } });
  });

  it('counts whitespace and null as values sent: they meet the identifier’s own check', () => {
    expect(which({ id: ' ' })).toEqual({ ok: true, value: { key: 'id', value: ' ' } });
    expect(which({ id: ' ', transaction_id: 'abc' })).toEqual(ONLY_ONE);
    expect(which({ id: '\t', transaction_id: '  ' })).toEqual(ONLY_ONE);
    expect(which({ id: null, transaction_id: 'abc' })).toEqual(ONLY_ONE);
    expect([undefined, '', ' ', null, 0, '0', [], ['1', '2']].map(isGiven)).toEqual([false, false, true, true, true, true, true, true]);
  });

  it('takes any number of identifiers, in the endpoint’s order (refund receipts: refund_id too)', () => {
    const receipt = (sent: object) => oneIdentifier(sent, ['refund_id', 'id', 'transaction_id'], { required: 'none', onlyOne: 'several' });
    expect(receipt({ refund_id: 'r-1', id: '' })).toEqual({ ok: true, value: { key: 'refund_id', value: 'r-1' } });
    expect(receipt({ refund_id: 'r-1', transaction_id: 'x' })).toEqual({ ok: false, refusal: { kind: 'validation', problems: ['several'] } });
    expect(receipt({ refund_id: '' })).toEqual({ ok: false, refusal: { kind: 'validation', problems: ['none'] } });
  });
});

// Every endpoint that takes one of them answers alike (GET /v2/withdrawals: libs/payout-query's lookup-queries spec).
describe('exactly one identifier, at each endpoint', () => {
  const refused = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: [message] } });

  it('GET /v2/pix', () => {
    expect(validatePixChargeQuery({ id: '', transaction_id: 'abc' })).toEqual({ ok: true, value: { transaction_id: 'abc' } });
    expect(validatePixChargeQuery({ id: '7', transaction_id: '' })).toEqual({ ok: true, value: { id: 7 } });
    expect(validatePixChargeQuery({ id: '', transaction_id: '' })).toEqual(refused('one of id, transaction_id is required'));
    expect(validatePixChargeQuery({ id: ' ', transaction_id: 'abc' })).toEqual(refused('please provide only one of id, transaction_id'));
    expect(validatePixChargeQuery({ id: ' ' })).toEqual(refused('query.id must be a positive integer'));
  });

  it('POST /v2/transactions/refund', () => {
    const charge = (body: object) => {
      const checked = validateCreateRefund({ refund_id: 'r-1', ...body });
      return checked.ok ? { ok: true, charge: checked.value.charge } : checked;
    };
    expect(charge({ id: '', transaction_id: 'abc' })).toEqual({ ok: true, charge: { transaction_id: 'abc' } });
    expect(charge({ id: 7, transaction_id: '' })).toEqual({ ok: true, charge: { id: 7 } });
    expect(charge({ id: '', transaction_id: '' })).toEqual(refused('one of id, transaction_id is required'));
    expect(charge({})).toEqual(refused('one of id, transaction_id is required'));
    expect(charge({ id: 7, transaction_id: 'abc' })).toEqual(refused('please provide only one of id, transaction_id'));
    expect(charge({ id: null, transaction_id: 'abc' })).toEqual(refused('please provide only one of id, transaction_id'));
    expect(charge({ transaction_id: ' ' })).toEqual({ ok: true, charge: { transaction_id: ' ' } });
    expect(charge({ id: 'abc' })).toEqual(refused('body.id must be a positive integer'));
    expect(charge({ id: 1e20 })).toEqual(refused('body.id must be a positive integer')); // an integer, but no charge's
    // Unknown fields are answered first, whatever the identifiers.
    expect(charge({ id: '', reason: 'x' })).toEqual(refused('`reason` is not a field of this endpoint'));
  });

  it('GET /v2/transactions/refund/receipt and GET /v2/withdrawals/refund/receipt', () => {
    expect(validateRefundReceiptQuery({ id: '', transaction_id: 'abc' })).toEqual({ ok: true, value: { transaction_id: 'abc' } });
    expect(validateRefundReceiptQuery({ refund_id: 'r-1', id: '', transaction_id: '' })).toEqual({ ok: true, value: { refund_id: 'r-1' } });
    expect(validateRefundReceiptQuery({ refund_id: ' ', id: '7' })).toEqual(refused('please provide only one of refund_id, id, transaction_id'));
    expect(validateRefundReceiptQuery({ id: ['1', '2'] })).toEqual(refused('please provide only one of refund_id, id, transaction_id'));
  });

  it('GET /v2/withdrawals/receipt', () => {
    expect(validatePayoutReceiptQuery({ id: '', transaction_id: 'abc' })).toEqual({ ok: true, value: { transaction_id: 'abc' } });
    expect(validatePayoutReceiptQuery({ id: '7', transaction_id: '' })).toEqual({ ok: true, value: { id: 7 } });
    expect(validatePayoutReceiptQuery({ id: '', transaction_id: '' })).toEqual(refused('one of id, transaction_id is required!'));
    expect(validatePayoutReceiptQuery({ id: '7', transaction_id: 'abc' })).toEqual(refused('please provide only one of id, transaction_id'));
    expect(validatePayoutReceiptQuery({ id: ' ' })).toEqual(refused('query.id must be a positive integer'));
    expect(validatePayoutReceiptQuery({ id: ['1', '2'] })).toEqual(refused('please provide only one of id, transaction_id'));
  });
});
