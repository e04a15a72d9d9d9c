import { validateRefundReceiptQuery } from '@pixauto/contracts';
import { chooseRefund, payoutReceiptFilename, payoutReceiptFor, ReceiptRefund, receiptFilename } from './receipt-lookup';

// Every receipt refusal (docs/decisions/receipts.md) that is judged before the bank is asked.

const charge = { id: 7, transaction_id: 'pedido-7', provider: 'PROVIDER_A' };
const refund = (id: number, extra: Partial<ReceiptRefund> = {}): ReceiptRefund => ({
  id,
  refund_id: `r-${id}`,
  status: 'REFUNDED',
  rtr_id: `D${id}`,
  ...extra,
});
const BOTH = ['PROVIDER_A', 'PROVIDER_B'];
const refusal = (status: number, message: string, detail?: string) => ({ ok: false, refusal: { kind: 'receipt', status, message, detail } });

describe('the refund a receipt request means', () => {
  it("is the charge's only refund, or the one refund_id named", () => {
    expect(chooseRefund('pix', charge, [refund(1)], undefined, BOTH)).toEqual({ ok: true, refund: refund(1) });
    expect(chooseRefund('pix', charge, [], refund(2), BOTH)).toEqual({ ok: true, refund: refund(2) });
    // A failed refund has no receipt and does not count.
    expect(chooseRefund('pix', charge, [refund(1, { status: 'FAILED', rtr_id: null }), refund(2)], undefined, BOTH)).toEqual({ ok: true, refund: refund(2) });
  });

  it('refuses a provider without a receipt API, and one the account has not enabled', () => {
    expect(chooseRefund('pix', { ...charge, provider: 'PROVIDER_C' }, [refund(1)], undefined, BOTH)).toEqual(
      refusal(400, 'Refund receipts are not supported for provider PROVIDER_C.'),
    );
    expect(chooseRefund('pix', { ...charge, provider: 'PROVIDER_B' }, [refund(1)], undefined, ['PROVIDER_A'])).toEqual(
      refusal(400, 'PROVIDER_B is not enabled for this account.'),
    );
  });

  it('answers 404 for a charge never refunded (or only by failed refunds)', () => {
    expect(chooseRefund('pix', charge, [], undefined, BOTH)).toEqual(refusal(404, 'No refund found for this transaction!'));
    expect(chooseRefund('pix', charge, [refund(1, { status: 'FAILED' })], undefined, BOTH)).toEqual(refusal(404, 'No refund found for this transaction!'));
    expect(chooseRefund('pix', charge, [], refund(1, { status: 'FAILED' }), BOTH)).toEqual(refusal(404, 'No refund found for this transaction!'));
  });

  it('answers 409 with the refund_ids when the charge has several refunds, and 409 before the bank gave the identifier', () => {
    expect(chooseRefund('pix', charge, [refund(1), refund(2), refund(3, { refund_id: null })], undefined, BOTH)).toEqual(
      refusal(409, 'This transaction has more than one refund. Pass refund_id to choose one.', 'r-1,r-2'),
    );
    expect(chooseRefund('pix', charge, [refund(1, { status: 'PROCESSING', rtr_id: null })], undefined, BOTH)).toEqual(
      refusal(409, 'Receipt not available yet: this refund has no provider identifier.'),
    );
  });

  it("speaks of the payout for a payout's returns", () => {
    const payout = { id: 3, transaction_id: 'saque-3', provider: 'PROVIDER_B' };
    expect(chooseRefund('payout', payout, [], undefined, BOTH)).toEqual(refusal(404, 'No refund found for this payout!'));
    expect(chooseRefund('payout', payout, [refund(1), refund(2)], undefined, BOTH)).toEqual(
      refusal(409, 'This payout has more than one refund. Pass refund_id to choose one.', 'r-1,r-2'),
    );
    expect(chooseRefund('payout', payout, [refund(1)], undefined, BOTH)).toEqual({ ok: true, refund: refund(1) });
  });

  it("gives a payout's own receipt only once it is completed, by a provider with a receipt API the account enabled", () => {
    const payout = { id: 3, transaction_id: 'saque 3', provider: 'PROVIDER_A', status: 1, e2e: 'E1' };
    expect(payoutReceiptFor(payout, BOTH)).toEqual({ ok: true, e2e: 'E1' });
    expect(payoutReceiptFor({ ...payout, status: 4, e2e: null }, BOTH)).toEqual(refusal(409, 'Receipt not available yet: the payout is not completed.'));
    expect(payoutReceiptFor({ ...payout, provider: 'PROVIDER_C' }, BOTH)).toEqual(refusal(400, 'Payout receipts are not supported for provider PROVIDER_C.'));
    expect(payoutReceiptFor(payout, ['PROVIDER_B'])).toEqual(refusal(400, 'PROVIDER_A is not enabled for this account.'));
    expect(payoutReceiptFilename(payout)).toBe('payout-saque_3.pdf');
  });

  it('names the file after the refund_id, or our id for a refund the service started', () => {
    expect(receiptFilename(refund(1, { refund_id: 'dev/2026 #1' }))).toBe('refund-dev_2026__1.pdf');
    expect(receiptFilename(refund(5, { refund_id: null }))).toBe('refund-5.pdf');
  });
});

describe('GET /v2/transactions/refund/receipt query', () => {
  it('takes exactly one of refund_id, id and transaction_id', () => {
    expect(validateRefundReceiptQuery({})).toEqual({
      ok: false,
      refusal: { kind: 'validation', problems: ['one of refund_id, id, transaction_id is required!'] },
    });
    expect(validateRefundReceiptQuery({ id: '', transaction_id: '' })).toEqual({
      ok: false,
      refusal: { kind: 'validation', problems: ['one of refund_id, id, transaction_id is required!'] },
    });
    for (const two of [
      { id: '1', refund_id: 'r' },
      { id: '1', transaction_id: 't' },
      { refund_id: 'r', transaction_id: 't' },
    ])
      expect(validateRefundReceiptQuery(two)).toEqual({
        ok: false,
        refusal: { kind: 'validation', problems: ['please provide only one of refund_id, id, transaction_id'] },
      });
    expect(validateRefundReceiptQuery({ id: 'x' })).toEqual({ ok: false, refusal: { kind: 'validation', problems: ['query.id must be a positive integer'] } });
    expect(validateRefundReceiptQuery({ id: '12' })).toEqual({ ok: true, value: { id: 12 } });
    expect(validateRefundReceiptQuery({ refund_id: 'r-1' })).toEqual({ ok: true, value: { refund_id: 'r-1' } });
    expect(validateRefundReceiptQuery({ transaction_id: 'p-1' })).toEqual({ ok: true, value: { transaction_id: 'p-1' } });
  });
});
