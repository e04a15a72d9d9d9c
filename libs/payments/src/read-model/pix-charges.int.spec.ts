import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ActivationPaidDataV1, PixChargeRecordData, pixChargeResponse, Tenant, Topics } from '@pixauto/contracts';
import { EventStore, fold } from '@pixauto/event-store';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { PAYMENTS_MIGRATIONS } from '../migrations';
import { PIX_CHARGE_STREAM, pixCharge, PixChargeCommand, PixChargeEvent, pixChargeStreamId } from '../pix-charge';
import {
  claimDuePixChargeExpiries,
  findPixCharge,
  findPixChargeById,
  findPixChargeByTxid,
  nextPixChargeId,
  pixChargeTransactionIdTaken,
  projectPixCharge,
} from './pix-charges.projection';

// The cash-in read model through the real event store (PostgreSQL): what GET reads, the lookups the bank's
// notifications and the sandbox payer use, the expiry sweep's query (the tenant's clock in SQL), the transaction_id
// race, and the first activation deposits' payload still projected.

const now = new Date('2026-11-24T15:00:00.000Z');
let dataSource: DataSource;
let store: EventStore;

beforeAll(async () => {
  dataSource = await createTestDataSource('payments_pix', [TenantClocksTable1763800000060, ...PAYMENTS_MIGRATIONS]);
  store = new EventStore(dataSource);
});
afterAll(() => dropTestDataSource(dataSource));

const newTenant = (environment: Tenant['environment'] = 'sandbox'): Tenant => ({ accountId: randomUUID(), environment });

async function chargeOf(tenant: Tenant, extra: Partial<PixChargeRecordData> = {}): Promise<PixChargeRecordData> {
  const id = await nextPixChargeId(dataSource.manager);
  return {
    id,
    transaction_id: `pedido-${id}`,
    amount_centavos: 15050,
    status: 'PENDING',
    provider: 'PROVIDER_A',
    payer: { document_number: '52998224725', name: 'Maria Silva' },
    description: 'Pedido',
    webhook: 'https://shop.example.com/pix',
    pix_copy_paste: '000201...',
    expires_at: '2026-11-24T16:00:00.000Z',
    created_at: now.toISOString(),
    paid_at: null,
    bank: { txid: `PIXAUTOC${tenant.environment === 'production' ? 'P' : 'S'}${String(id).padStart(20, '0')}`, location: `127.0.0.1:4010/qr/v2/${id}` },
    e2e_id: null,
    origin: null,
    ...extra,
  };
}

const run = (tenant: Tenant, transactionId: string, command: PixChargeCommand, on = store) =>
  on.handle(pixCharge, command, {
    streamId: pixChargeStreamId(tenant, transactionId),
    streamType: PIX_CHARGE_STREAM,
    tenant,
    now,
    topic: Topics.payments.name,
    project: projectPixCharge,
  });

describe('the pix_charges read model (PostgreSQL)', () => {
  it('shows a created charge as the API does, and finds it by id and by the bank txid', async () => {
    const tenant = newTenant();
    const charge = await chargeOf(tenant);
    expect((await run(tenant, charge.transaction_id, { type: 'CreatePixCharge', charge })).ok).toBe(true);
    expect(await findPixCharge(dataSource.manager, tenant, { id: charge.id })).toEqual(pixChargeResponse(charge));
    expect(await findPixCharge(dataSource.manager, tenant, { transaction_id: charge.transaction_id })).toEqual(pixChargeResponse(charge));
    const ref = { tenant, id: charge.id, transactionId: charge.transaction_id, txid: charge.bank?.txid };
    expect(await findPixChargeById(dataSource.manager, tenant, charge.id)).toEqual(ref);
    expect(await findPixChargeByTxid(dataSource.manager, 'sandbox', charge.bank?.txid ?? '')).toEqual(ref);
    expect(await findPixChargeByTxid(dataSource.manager, 'production', charge.bank?.txid ?? '')).toBeUndefined();
    expect(await findPixCharge(dataSource.manager, newTenant(), { id: charge.id })).toBeUndefined();
    expect(await pixChargeTransactionIdTaken(dataSource.manager, tenant, charge.transaction_id)).toBe(true);
    expect(await pixChargeTransactionIdTaken(dataSource.manager, newTenant(), charge.transaction_id)).toBe(false);
  });

  it('follows the payment: PAID, paid_at, the code voided', async () => {
    const tenant = newTenant();
    const charge = await chargeOf(tenant);
    await run(tenant, charge.transaction_id, { type: 'CreatePixCharge', charge });
    await run(tenant, charge.transaction_id, { type: 'RecordPayment', payment: { paid_at: '2026-11-24T15:05:00.000Z', e2e_id: 'E1' } });
    expect(await findPixCharge(dataSource.manager, tenant, { id: charge.id })).toEqual({
      ...pixChargeResponse(charge),
      status: 'PAID',
      pix_copy_paste: null,
      paid_at: '2026-11-24T15:05:00.000Z',
    });
    expect((await dataSource.query('SELECT e2e_id, version FROM pix_charges WHERE id = $1', [charge.id]))[0]).toEqual({ e2e_id: 'E1', version: 2 });
  });

  it('finds the PENDING charges whose expires_at their tenant has reached: real time in production, the test clock in the sandbox', async () => {
    const production = newTenant('production');
    const sandbox = newTenant('sandbox');
    const paidTenant = newTenant('sandbox');
    const inProduction = await chargeOf(production);
    const inSandbox = await chargeOf(sandbox);
    const paid = await chargeOf(paidTenant);
    for (const [tenant, charge] of [
      [production, inProduction],
      [sandbox, inSandbox],
      [paidTenant, paid],
    ] as const) {
      await run(tenant, charge.transaction_id, { type: 'CreatePixCharge', charge });
    }
    await run(paidTenant, paid.transaction_id, { type: 'RecordPayment', payment: { paid_at: now.toISOString(), e2e_id: null } });
    // Claimed and released at once, as after a run that expired nothing.
    const due = async (at: Date) => {
      const claim = await claimDuePixChargeExpiries(dataSource.manager, at, 1000);
      await claim.release();
      return claim.items.map((ref) => ref.id).filter((id) => [inProduction.id, inSandbox.id, paid.id].includes(id));
    };
    expect(await due(new Date('2026-11-24T15:59:59.999Z'))).toEqual([]);
    expect((await due(new Date('2026-11-24T16:00:00.000Z'))).sort()).toEqual([inProduction.id, inSandbox.id].sort());
    // Two hours ahead on the sandbox tenant's test clock: due already in real time 14:00; production is not.
    await dataSource.query('INSERT INTO tenant_clocks (account_id, offset_ms, version) VALUES ($1, $2, 1)', [sandbox.accountId, 2 * 3600_000]);
    expect(await due(new Date('2026-11-24T14:00:00.000Z'))).toEqual([inSandbox.id]);
    await run(sandbox, inSandbox.transaction_id, { type: 'ExpirePixCharge' });
    expect(await due(new Date('2026-11-24T16:00:00.000Z'))).toEqual([inProduction.id]);
    expect(await findPixCharge(dataSource.manager, sandbox, { id: inSandbox.id })).toMatchObject({ status: 'EXPIRED', pix_copy_paste: null });
  });

  it('records one of eight concurrent creations with the same transaction_id, from as many processes', async () => {
    const tenant = newTenant();
    const charges = await Promise.all(Array.from({ length: 8 }, () => chargeOf(tenant, { transaction_id: 'pedido-corrida' })));
    const outcomes = await Promise.all(
      charges.map((charge) =>
        run(tenant, 'pedido-corrida', { type: 'CreatePixCharge', charge }, new EventStore(dataSource)).then(
          (outcome) => (outcome.ok ? 'created' : outcome.refusal.kind === 'validation' && outcome.refusal.problems[0]),
          (error: { code?: string; constraint?: string }) => `${error.code} ${error.constraint}`,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'created')).toEqual(Array.from({ length: 7 }, () => 'body.transaction_id already exists'));
    expect(Number((await dataSource.query('SELECT count(*) AS n FROM pix_charges WHERE account_id = $1', [tenant.accountId]))[0].n)).toBe(1);
  });

  it('counts the deposit a journey 3 recurrence announced as a taken transaction_id', async () => {
    const tenant = newTenant();
    await dataSource.query(
      `INSERT INTO pending_activations (account_id, environment, recurrence_id, transaction_id, activation_charge_id, amount_centavos, provider, created_at)
       VALUES ($1, $2, $3, 'plano-1', $4, 500, 'PROVIDER_A', now())`,
      [tenant.accountId, tenant.environment, randomUUID(), randomUUID()],
    );
    expect(await pixChargeTransactionIdTaken(dataSource.manager, tenant, 'plano-1-ativacao')).toBe(true);
    expect(await pixChargeTransactionIdTaken(dataSource.manager, tenant, 'plano-1')).toBe(false);
  });

  it('still projects the first activation deposits (version 1 payload), with what they did not record as null', async () => {
    const tenant = newTenant();
    const v1: ActivationPaidDataV1 = {
      id: await nextPixChargeId(dataSource.manager),
      transaction_id: 'plano-antigo-ativacao',
      amount_centavos: 4000,
      provider: 'PROVIDER_B',
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:05:00.000Z',
      origin: { recurrence_id: randomUUID(), activation_charge_id: randomUUID() },
    };
    const event: PixChargeEvent = { type: 'pix_charge.paid', data: v1 };
    await store.append(
      {
        streamId: pixChargeStreamId(tenant, v1.transaction_id),
        streamType: PIX_CHARGE_STREAM,
        expectedVersion: 0,
        events: [event],
        tenant,
        occurredAt: now,
        topic: Topics.payments.name,
      },
      (recorded) => projectPixCharge(recorded, fold(pixCharge, [event])),
    );
    expect(await findPixCharge(dataSource.manager, tenant, { transaction_id: v1.transaction_id })).toEqual({
      id: v1.id,
      transaction_id: v1.transaction_id,
      amount: 40,
      status: 'PAID',
      provider: 'PROVIDER_B',
      payer: null,
      description: null,
      webhook: null,
      pix_copy_paste: null,
      expires_at: null,
      created_at: v1.created_at,
      paid_at: v1.paid_at,
      dispute: null,
    });
    // A redelivered approval of it records nothing more.
    const again = await run(tenant, v1.transaction_id, { type: 'RecordPaidDeposit', charge: await chargeOf(tenant, { transaction_id: v1.transaction_id }) });
    expect(again.ok && again.events).toEqual([]);
  });
});
