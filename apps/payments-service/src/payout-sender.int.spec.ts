import { randomBytes, randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { PayoutRecordData, PayoutStatus, Tenant, Topics } from '@pixauto/contracts';
import { Banks } from '@pixauto/bank';
import { EventStore } from '@pixauto/event-store';
import { claimUnsettledPayouts, nextPayoutId, payout, PAYOUT_STREAM, payoutStreamId, projectPayout, PAYMENTS_MIGRATIONS } from '@pixauto/payments';
import { SystemClock } from '@pixauto/pix';
import { forEachConcurrently } from '@pixauto/runtime';
import { CountingProxy, eventually } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource, openReplicaDataSource } from '@pixauto/event-store/testing';
import { createSimulatorApp } from '../../bank-simulator/src/app';
import { simulatorConfig } from '../../bank-simulator/src/config';
import { idEnvioOf, PayoutBankNotices, PayoutSender } from './payouts';

// The payout sender run by two replicas of payments-service at once (two pools on one database, each its own
// EventStore, bank client and PeriodicTask) against the bank simulator in-process, each replica reaching it through
// a loopback proxy of its own that counts the PUT /pagamentos/{idEnvio} it forwards: every payout is handed to the
// bank exactly once, both replicas send a share, and a payout claimed by a replica that died is sent after its lease.

const clock = new SystemClock();
const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'production' };
/** The lease of the claim a dead replica leaves behind. */
const LEASE_MS = 4000;
const simulatorDatabase = `pixauto_test_sender_bank_${randomBytes(6).toString('hex')}`;

/** One replica of payments-service, as far as the sender goes. */
interface Replica {
  dataSource: DataSource;
  proxy: CountingProxy;
  banks: Banks;
  sender: PayoutSender;
}

let simulator: NestFastifyApplication;
let first: DataSource;
let second: DataSource;
const replicas: Replica[] = [];

beforeAll(async () => {
  simulator = await createSimulatorApp({ ...simulatorConfig({}), databaseName: simulatorDatabase }, { logger: false });
  await simulator.listen(0, '127.0.0.1');
  const bankUrl = `http://127.0.0.1:${(simulator.getHttpServer().address() as AddressInfo).port}`;
  first = await createTestDataSource('payout_sender', PAYMENTS_MIGRATIONS);
  second = await openReplicaDataSource(first);
  for (const dataSource of [first, second]) {
    const proxy = await new CountingProxy(bankUrl).start();
    const banks = new Banks({ production: { url: proxy.url, token: 'sender-token' }, sandbox: { url: proxy.url, token: 'sender-token' } });
    const notices = new PayoutBankNotices(new EventStore(dataSource), dataSource, clock, banks);
    replicas.push({ dataSource, proxy, banks, sender: new PayoutSender(dataSource, clock, notices) });
  }
});

afterAll(async () => {
  for (const replica of replicas) {
    await replica.sender.onModuleDestroy();
    await replica.banks.close();
    await replica.proxy.stop();
  }
  await second?.destroy();
  await dropTestDataSource(first);
  await simulator?.close();
  const admin = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.initialize();
  await admin.query(`DROP DATABASE IF EXISTS "${simulatorDatabase}" WITH (FORCE)`);
  await admin.destroy();
});

/** Payouts created as POST /v2/payout does (status 0, not at the bank yet); their ids. */
async function createPayouts(count: number): Promise<number[]> {
  const store = new EventStore(first);
  const ids: number[] = [];
  await forEachConcurrently(
    Array.from({ length: count }, (_, i) => i),
    8,
    async () => {
      const id = await nextPayoutId(first.manager);
      const now = clock.now(tenant);
      const record: PayoutRecordData = {
        id,
        transaction_id: `tx-${randomUUID()}`,
        name: 'Padaria Pão Bom Ltda',
        document_number: '11222333000181',
        document_type: 'CNPJ',
        amount_centavos: 1500,
        status: PayoutStatus.created,
        pix_key: null,
        bank: { type: 'PIX', bank_name: null, bank_code: null, ispb: '60701190', account_agency: '0001', account_number: '12345-6' },
        webhook: null,
        provider: 'PROVIDER_A',
        created_at: now.toISOString(),
        paid_at: null,
        e2e: null,
        psp_id: null,
      };
      const outcome = await store.handle(
        payout,
        { type: 'CreatePayout', payout: record },
        { streamId: payoutStreamId(tenant, id), streamType: PAYOUT_STREAM, tenant, now, topic: Topics.payouts.name, project: projectPayout },
      );
      if (!outcome.ok) throw new Error(`payout not created: ${JSON.stringify(outcome.refusal)}`);
      ids.push(id);
    },
  );
  return ids;
}

const stillCreated = async (ids: number[]): Promise<number> =>
  (await first.query('SELECT count(*)::int AS n FROM payouts WHERE id = ANY($1) AND status = 0', [ids]))[0].n;

/** How many times each replica handed each payout to the bank. */
const sends = (ids: number[]) => ids.map((id) => replicas.map((replica) => replica.proxy.count('PUT', `/pagamentos/${idEnvioOf('production', id)}`)));

describe('the payout sender on two replicas', () => {
  it('hands every payout to the bank exactly once, each replica a share', async () => {
    const ids = await createPayouts(640);

    for (const replica of replicas) replica.sender.onApplicationBootstrap();
    await eventually(
      () => stillCreated(ids),
      (n) => n === 0,
      { timeoutMs: 60_000, what: 'every payout handed to the bank' },
    );
    for (const replica of replicas) await replica.sender.onModuleDestroy();

    const counts = sends(ids);
    expect(counts.filter(([a, b]) => a + b !== 1)).toEqual([]);
    const share = counts.filter(([a]) => a === 1).length / ids.length;
    expect(share).toBeGreaterThanOrEqual(0.35);
    expect(share).toBeLessThanOrEqual(0.65);
  }, 90_000);

  it('sends the payouts a killed replica had claimed once its lease has ended, and not before', async () => {
    const orphaned = await createPayouts(20);
    // The second replica claims them and dies: it never sends, renews nor releases.
    const claimed = await claimUnsettledPayouts(second.manager, 0, 0, 64, LEASE_MS);
    expect(claimed.items.map((p) => p.payout.id).sort()).toEqual([...orphaned].sort());
    const claimedAt = performance.now();
    const later = await createPayouts(5);

    replicas[0].sender.onApplicationBootstrap();
    // The payouts created after the claim go out at once; by then the claimed ones have not been touched.
    await eventually(
      () => stillCreated(later),
      (n) => n === 0,
      { timeoutMs: 10_000, what: 'the unclaimed payouts sent' },
    );
    expect(
      sends(orphaned)
        .flat()
        .reduce((a, b) => a + b, 0),
    ).toBe(0);

    await eventually(
      () => stillCreated(orphaned),
      (n) => n === 0,
      { timeoutMs: LEASE_MS + 10_000, what: "the dead replica's payouts sent" },
    );
    const tookMs = performance.now() - claimedAt;
    await replicas[0].sender.onModuleDestroy();
    expect(tookMs).toBeGreaterThanOrEqual(LEASE_MS - 100);
    expect(tookMs).toBeLessThan(LEASE_MS + 4000);
    expect(sends([...orphaned, ...later]).map(([a, b]) => a + b)).toEqual(Array(25).fill(1));
  }, 30_000);
});
