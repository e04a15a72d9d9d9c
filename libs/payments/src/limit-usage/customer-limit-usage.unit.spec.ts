import { enforcedLimitOf, judgeLimit, LimitedTransaction } from './customer-limit-usage';

const transaction: LimitedTransaction = {
  tenant: { accountId: 'a1', environment: 'sandbox' },
  documentNumber: '52998224725',
  type: 'cashout',
  amountCentavos: 15050,
  day: '2026-11-24',
};

describe('customer limits enforced at every transaction', () => {
  it('has no restriction without a limit (item 5)', () => {
    expect(judgeLimit(transaction, undefined, 1000)).toBeUndefined();
  });

  it('amount: refuses above the limit, passes at it (item 1), naming the customer, the type and the limit', () => {
    expect(judgeLimit(transaction, { mechanism: 'amount', amountCentavos: 15050 }, 0)).toBeUndefined();
    expect(judgeLimit(transaction, { mechanism: 'amount', amountCentavos: 15049 }, 0)).toEqual({
      kind: 'limit_exceeded',
      message: 'cashout limit exceeded for customer 52998224725: 150.50 is above the limit of 150.49 per transaction',
    });
  });

  it("quantity: refuses when today's count equals the limit (item 2)", () => {
    expect(judgeLimit(transaction, { mechanism: 'quantity', quantity: 3 }, 2)).toBeUndefined();
    expect(judgeLimit({ ...transaction, type: 'cashin' }, { mechanism: 'quantity', quantity: 3 }, 3)).toEqual({
      kind: 'limit_exceeded',
      message: 'cashin limit exceeded for customer 52998224725: the limit of 3 transactions per day (Brasília time) is reached',
    });
    expect(judgeLimit(transaction, { mechanism: 'quantity', quantity: 1 }, 1)).toMatchObject({
      message: expect.stringContaining('the limit of 1 transaction per day'),
    });
  });

  it("reads limits-service's answer in centavos", () => {
    const base = { document_number: '52998224725', type: 'cashout' as const, created_at: '', updated_at: '' };
    expect(enforcedLimitOf({ ...base, mechanism: 'amount', amount: 150.5 })).toEqual({ mechanism: 'amount', amountCentavos: 15050 });
    expect(enforcedLimitOf({ ...base, mechanism: 'quantity', quantity: 3 })).toEqual({ mechanism: 'quantity', quantity: 3 });
    expect(enforcedLimitOf(undefined)).toBeUndefined();
  });
});
