import type { ExecutionContext } from '@nestjs/common';
import { Messages, RefusalException } from '@pixauto/errors';
import { TransactionsGrantGuard } from './transactions-grant.guard';

const contextOf = (transactions: boolean) => ({ switchToHttp: () => ({ getRequest: () => ({ grant: { transactions } }) }) }) as unknown as ExecutionContext;

describe('TransactionsGrantGuard: receipts need a key with access to transactions', () => {
  it('lets a key with access through', () => {
    expect(new TransactionsGrantGuard().canActivate(contextOf(true))).toBe(true);
  });

  it('refuses any other key with 403, before anything is read', () => {
    expect(() => new TransactionsGrantGuard().canActivate(contextOf(false))).toThrow(
      expect.objectContaining({ refusal: { kind: 'forbidden', message: Messages.auth.transactionsForbidden } }) as RefusalException,
    );
  });
});
