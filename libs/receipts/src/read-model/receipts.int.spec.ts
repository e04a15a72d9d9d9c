import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EventEnvelope, PayoutRecordData, PixChargeRecordData, RefundRecordData, Tenant } from '@pixauto/contracts';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { ReceiptsReadModel1763800000800 } from './receipts.migration';
import { applyReceiptEvents, findAccountProviders, findReceiptParent, findReceiptPayout, findRefundByRefundId, findRefundsOf } from './receipts.read-model';

// receipt-service's read model on a real PostgreSQL: what each event leaves, by version, whatever the order, and that
// no event of the topics (even one an older system wrote) can stop the follower.

let dataSource: DataSource;
beforeAll(async () => {
  dataSource = await createTestDataSource('receipts', [ReceiptsReadModel1763800000800]);
});
afterAll(async () => {
  await dropTestDataSource(dataSource);
});

const newTenant = (): Tenant => ({ accountId: randomUUID(), environment: 'sandbox' });
const envelope = (tenant: Tenant, type: string, version: number, data: unknown): EventEnvelope => ({
  event_id: randomUUID(),
  type,
  stream_id: `s:${tenant.accountId}:${type}`,
  version,
  tenant: { account_id: tenant.accountId, environment: tenant.environment },
  occurred_at: '2026-11-25T12:00:00.000Z',
  data,
});
const charge = (id: number, transactionId = `pix-${id}`): PixChargeRecordData => ({
  id,
  transaction_id: transactionId,
  amount_centavos: 1000,
  status: 'PAID',
  provider: 'PROVIDER_B',
  payer: null,
  description: null,
  webhook: null,
  pix_copy_paste: null,
  expires_at: null,
  created_at: '2026-11-25T12:00:00.000Z',
  paid_at: '2026-11-25T12:00:00.000Z',
  bank: null,
  e2e_id: 'E1',
  origin: null,
});
const refund = (id: number, status: RefundRecordData['status'], rtrId: string | null): RefundRecordData => ({
  id,
  refund_id: `r-${id}`,
  amount_centavos: 500,
  status,
  bank_id: `PIXAUTORS${id}`,
  rtr_id: rtrId,
  failure_reason: null,
  created_at: '2026-11-25T12:01:00.000Z',
  refunded_at: null,
});

describe('the receipts read model', () => {
  it('follows a refund to its provider identifier, and an older event arriving late changes nothing', async () => {
    const tenant = newTenant();
    const c = charge(1);
    await applyReceiptEvents(dataSource.manager, [
      envelope(tenant, 'pix_charge.paid', 2, { charge: c }),
      envelope(tenant, 'pix_charge.refunded', 4, { charge: c, refund: refund(10, 'REFUNDED', 'D1') }),
      envelope(tenant, 'pix_charge.refund_requested', 3, { charge: c, refund: refund(10, 'PROCESSING', null) }),
    ]);
    expect(await findReceiptParent(dataSource.manager, tenant, 'pix', { transaction_id: 'pix-1' })).toEqual({
      id: 1,
      transaction_id: 'pix-1',
      provider: 'PROVIDER_B',
    });
    expect(await findRefundsOf(dataSource.manager, tenant, 'pix', 1)).toEqual([{ id: 10, refund_id: 'r-10', status: 'REFUNDED', rtr_id: 'D1' }]);
    expect(await findRefundByRefundId(dataSource.manager, tenant, 'r-10')).toMatchObject({ kind: 'pix', parentId: 1 });
    expect(await findReceiptParent(dataSource.manager, { ...tenant, environment: 'production' }, 'pix', { id: 1 })).toBeUndefined();
  });

  it("keeps a payout's returns as refunds of kind payout, and its status and end-to-end id", async () => {
    const tenant = newTenant();
    const payout = {
      id: 5,
      transaction_id: 'saque-5',
      provider: 'PROVIDER_A',
      status: 1,
      e2e: 'E5',
      returns: [{ id: 11, refund_id: 'DEV1', amount_centavos: 100, rtr_id: 'D5', returned_at: '2026-11-25T13:00:00.000Z' }],
    };
    await applyReceiptEvents(dataSource.manager, [
      envelope(tenant, 'payout.returned', 4, { payout: payout as unknown as PayoutRecordData, return: payout.returns[0] }),
    ]);
    expect(await findReceiptPayout(dataSource.manager, tenant, { id: 5 })).toEqual({
      id: 5,
      transaction_id: 'saque-5',
      provider: 'PROVIDER_A',
      status: 1,
      e2e: 'E5',
    });
    expect(await findRefundByRefundId(dataSource.manager, tenant, 'DEV1')).toEqual({
      refund: { id: 11, refund_id: 'DEV1', status: 'REFUNDED', rtr_id: 'D5' },
      kind: 'payout',
      parentId: 5,
    });
  });

  it("takes the accounts' providers and their changes, by version", async () => {
    const tenant = newTenant();
    const a = [{ code: 'PROVIDER_A', credentials: { client_id: 'x', client_secret: 'y' } }];
    const b = [{ code: 'PROVIDER_B', credentials: { client_id: 'x', client_secret: 'invalid' } }];
    await applyReceiptEvents(dataSource.manager, [
      envelope(tenant, 'account.opened', 1, { account_id: tenant.accountId, providers: a }),
      envelope(tenant, 'account.changed', 3, { providers: b }),
      envelope(tenant, 'account.changed', 2, { wallet: false }),
    ]);
    expect(await findAccountProviders(dataSource.manager, tenant.accountId)).toEqual(b);
  });

  it('never stops on two charges of one transaction_id (an older system wrote such), and answers the latest', async () => {
    const tenant = newTenant();
    await applyReceiptEvents(dataSource.manager, [
      envelope(tenant, 'pix_charge.paid', 1, { charge: charge(20, 'same') }),
      envelope(tenant, 'pix_charge.paid', 1, { charge: charge(21, 'same') }),
    ]);
    expect(await findReceiptParent(dataSource.manager, tenant, 'pix', { transaction_id: 'same' })).toMatchObject({ id: 21 });
  });
});
