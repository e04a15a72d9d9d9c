import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PayoutRecordData, Tenant, Topics } from '@pixauto/contracts';
import { EventStore } from '@pixauto/event-store';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { isLimitUsageExhausted, LimitedTransaction, reserveLimitUsage } from '../limit-usage/customer-limit-usage';
import { PAYMENTS_MIGRATIONS } from '../migrations';
import { BankPayoutNotice, payout, PAYOUT_STREAM, payoutStreamId } from './payout';
import { projectPayout } from './payouts.projection';

// Payouts through the real event store (PostgreSQL): the daily cashout count taken in the creation's own statement,
// exact under concurrency, and given back by a rejection in the rejection's own statement.

const now = new Date('2026-11-24T15:00:00.000Z');
let dataSource: DataSource;
let store: EventStore;

beforeAll(async () => {
  dataSource = await createTestDataSource('payments_payouts', PAYMENTS_MIGRATIONS);
  store = new EventStore(dataSource);
});
afterAll(() => dropTestDataSource(dataSource));

let nextId = 1;
const newTenant = (): Tenant => ({ accountId: `acc_${randomUUID()}`, environment: 'sandbox' });
const recordOf = (id: number, document: string): PayoutRecordData => ({
  id,
  transaction_id: `saque-${id}`,
  name: 'Maria Silva',
  document_number: document,
  document_type: 'CPF',
  amount_centavos: 1000,
  status: 0,
  pix_key: 'maria@example.com',
  bank: { type: 'PIX', bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
  webhook: null,
  provider: 'PROVIDER_A',
  created_at: now.toISOString(),
  paid_at: null,
  e2e: null,
  psp_id: null,
});
const context = (tenant: Tenant, id: number, extra: ReturnType<typeof reserveLimitUsage>[] = []) => ({
  streamId: payoutStreamId(tenant, id),
  streamType: PAYOUT_STREAM,
  tenant,
  now,
  topic: Topics.payouts.name,
  project: (events: Parameters<typeof projectPayout>[0], state: Parameters<typeof projectPayout>[1]) => [...projectPayout(events, state), ...extra],
});
const transactionOf = (tenant: Tenant, document: string): LimitedTransaction => ({
  tenant,
  documentNumber: document,
  type: 'cashout',
  amountCentavos: 1000,
  day: '2026-11-24',
});
const used = async (tenant: Tenant) =>
  Number((await dataSource.query('SELECT coalesce(sum(used), 0) AS n FROM customer_limit_usage WHERE account_id = $1', [tenant.accountId]))[0].n);
const count = async (table: string, tenant: Tenant) =>
  Number((await dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE account_id = $1`, [tenant.accountId]))[0].n);

/** Creates a payout under a daily cap; resolves to whether it was created. */
async function create(tenant: Tenant, document: string, cap: number): Promise<boolean> {
  const id = nextId++;
  try {
    const outcome = await store.handle(
      payout,
      { type: 'CreatePayout', payout: recordOf(id, document) },
      context(tenant, id, [reserveLimitUsage(transactionOf(tenant, document), { mechanism: 'quantity', quantity: cap })]),
    );
    return outcome.ok;
  } catch (error) {
    if (isLimitUsageExhausted(error)) return false;
    throw error;
  }
}

describe('payouts and the daily cashout count (PostgreSQL)', () => {
  it('creates exactly `cap` of twenty concurrent payouts, and the refused ones leave no event, row or outbox message', async () => {
    const tenant = newTenant();
    const created = await Promise.all(Array.from({ length: 20 }, () => create(tenant, '52998224725', 3)));
    expect(created.filter(Boolean)).toHaveLength(3);
    expect(await used(tenant)).toBe(3);
    expect(await count('events', tenant)).toBe(3);
    expect(await count('payouts', tenant)).toBe(3);
    expect(Number((await dataSource.query(`SELECT count(*) AS n FROM outbox WHERE message_key LIKE $1`, [`payout:${tenant.accountId}:%`]))[0].n)).toBe(3);
  });

  it('counts every payout, limited or not, and a rejection gives its unit back', async () => {
    const tenant = newTenant();
    const id = nextId++;
    await store.handle(
      payout,
      { type: 'CreatePayout', payout: recordOf(id, '52998224725') },
      context(tenant, id, [reserveLimitUsage(transactionOf(tenant, '52998224725'), undefined)]),
    );
    expect(await used(tenant)).toBe(1);
    expect(await create(tenant, '52998224725', 1)).toBe(false);
    const rejected: BankPayoutNotice = {
      status: 3,
      name: null,
      bank: { bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
      e2e: null,
      psp_id: null,
      paid_at: null,
      reason: 'no key',
    };
    await store.handle(payout, { type: 'RecordBankNotice', notice: rejected }, context(tenant, id));
    expect(await used(tenant)).toBe(0);
    // A repeated rejection records nothing, so gives nothing back twice.
    await store.handle(payout, { type: 'RecordBankNotice', notice: rejected }, context(tenant, id));
    expect(await used(tenant)).toBe(0);
    expect(await create(tenant, '52998224725', 1)).toBe(true);
  });
});
