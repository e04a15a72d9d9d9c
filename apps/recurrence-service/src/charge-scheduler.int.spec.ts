import { randomBytes, randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { AccountProfile, Tenant } from '@pixauto/contracts';
import { Banks } from '@pixauto/bank';
import { EventStore } from '@pixauto/event-store';
import { brasiliaDate, SystemClock } from '@pixauto/pix';
import { claimDueChargeCreations, RECURRENCE_MIGRATIONS } from '@pixauto/recurrences';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { CountingProxy, eventually } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource, openReplicaDataSource } from '@pixauto/event-store/testing';
import { createSimulatorApp } from '../../bank-simulator/src/app';
import { simulatorConfig } from '../../bank-simulator/src/config';
import { Charges } from './charges';
import { Recurrences } from './recurrences';

// The cycle charge scheduler run by two replicas of recurrence-service at once (two pools on one database, each its
// own EventStore and bank client) against the bank simulator in-process, each replica reaching it through a loopback
// proxy of its own that counts the debits it creates (PUT /cobr/{txid}): every cycle debited exactly once, both
// replicas a share, and the recurrences a replica that died had claimed debited by the other after the lease.

const clock = new SystemClock();
const LEASE_MS = 4000;
const simulatorDatabase = `pixauto_test_scheduler_bank_${randomBytes(6).toString('hex')}`;
const account: AccountProfile = { name: 'Loja Recorrente', wallet: true, cashin_provider: 'PROVIDER_A' };

/** A valid CPF from a 9-digit base (the Receita Federal's check digits). */
function cpf(base: number): string {
  const digits = String(base).padStart(9, '0').slice(-9).split('').map(Number);
  const check = (ds: number[]) => ((ds.reduce((sum, d, i) => sum + d * (ds.length + 1 - i), 0) * 10) % 11) % 10;
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join('');
}

interface Replica {
  proxy: CountingProxy;
  banks: Banks;
  charges: Charges;
}

let simulator: NestFastifyApplication;
let first: DataSource;
let second: DataSource;
let recurrences: Recurrences;
const replicas: Replica[] = [];

beforeAll(async () => {
  simulator = await createSimulatorApp({ ...simulatorConfig({}), databaseName: simulatorDatabase }, { logger: false });
  await simulator.listen(0, '127.0.0.1');
  const bankUrl = `http://127.0.0.1:${(simulator.getHttpServer().address() as AddressInfo).port}`;
  first = await createTestDataSource('charge_scheduler', [TenantClocksTable1763800000060, ...RECURRENCE_MIGRATIONS]);
  second = await openReplicaDataSource(first);
  for (const dataSource of [first, second]) {
    const proxy = await new CountingProxy(bankUrl).start();
    const banks = new Banks({ production: { url: proxy.url, token: 'scheduler-token' }, sandbox: { url: proxy.url, token: 'scheduler-token' } });
    const eventStore = new EventStore(dataSource);
    const ownRecurrences = new Recurrences(eventStore, dataSource, banks, clock);
    recurrences ??= ownRecurrences;
    replicas.push({ proxy, banks, charges: new Charges(ownRecurrences, eventStore, dataSource, banks, clock) });
  }
});

afterAll(async () => {
  for (const replica of replicas) {
    await replica.banks.close();
    await replica.proxy.stop();
  }
  await second?.destroy();
  await dropTestDataSource(first);
  await simulator?.close();
  const admin = await new DataSource({ type: 'postgres', url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' }).initialize();
  await admin.query(`DROP DATABASE IF EXISTS "${simulatorDatabase}" WITH (FORCE)`);
  await admin.destroy();
});

/**
 * Sandbox recurrences approved by the payer today, starting in four days: each one's first cycle is due for creation
 * now (five days ahead of its due date), as the scheduler finds them after a clock advance or a quiet night.
 */
async function approvedRecurrences(tenant: Tenant, count: number): Promise<string[]> {
  const start = brasiliaDate(new Date(clock.now().getTime() + 4 * 86_400_000));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await recurrences.create(tenant, account, {
      transaction_id: `tx${randomBytes(8).toString('hex')}`,
      debtor: { document_number: cpf(100_000_000 + Math.floor(Math.random() * 800_000_000)), name: 'Maria Souza' },
      schedule: { start_date: start, periodicity: 'MONTHLY' },
      amount: 49.9,
      retry_policy: 'NOT_ALLOWED',
    });
    expect((await recurrences.payerAnswers(tenant, created.recurrence_id, 'authorize')).status).toBe('APPROVED');
    ids.push(created.recurrence_id);
  }
  return ids;
}

/** The txid of each recurrence's charges (the debit the bank was asked to create). */
const txidsOf = async (ids: string[]): Promise<string[]> =>
  (await first.query(`SELECT txid FROM charges WHERE recurrence_id = ANY($1) AND type = 'cycle'`, [ids])).map((row: { txid: string }) => row.txid);

/** The debits each replica created of these txids: [first, second] per txid. */
const debits = (txids: string[]) => txids.map((txid) => replicas.map((replica) => replica.proxy.count('PUT', `/cobr/${txid}`)));

/** A scheduler's runs, five recurrences at a time (a run that took its limit runs again at once, as PeriodicTask does). */
async function schedule(charges: Charges): Promise<void> {
  for (let more = true; more;) more = await charges.issueDueCharges(5);
}

describe('the charge scheduler on two replicas', () => {
  it('debits every due cycle exactly once at the bank, each replica a share', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'sandbox' };
    const ids = await approvedRecurrences(tenant, 60);

    await Promise.all(replicas.map((replica) => schedule(replica.charges)));

    const txids = await txidsOf(ids);
    expect(txids).toHaveLength(60);
    const counts = debits(txids);
    expect(counts.filter(([a, b]) => a + b !== 1)).toEqual([]);
    const share = counts.filter(([a]) => a === 1).length / txids.length;
    expect(share).toBeGreaterThanOrEqual(0.35);
    expect(share).toBeLessThanOrEqual(0.65);
  }, 120_000);

  it('debits the cycles a killed replica had claimed once its lease has ended, and not before', async () => {
    const tenant: Tenant = { accountId: `acc-${randomUUID()}`, environment: 'sandbox' };
    const ids = await approvedRecurrences(tenant, 10);
    // The second replica claims them and dies: it never debits, renews nor releases.
    const claimed = await claimDueChargeCreations(second.manager, clock.now(), 100, undefined, LEASE_MS);
    expect(claimed.items.map((r) => r.recurrenceId).sort()).toEqual([...ids].sort());
    const claimedAt = performance.now();

    await schedule(replicas[0].charges);
    expect(await txidsOf(ids)).toEqual([]);

    await eventually(
      async () => {
        await schedule(replicas[0].charges);
        return (await txidsOf(ids)).length;
      },
      (n) => n === 10,
      { timeoutMs: LEASE_MS + 10_000, intervalMs: 250, what: "the dead replica's recurrences debited" },
    );
    expect(performance.now() - claimedAt).toBeGreaterThanOrEqual(LEASE_MS - 100);
    expect(debits(await txidsOf(ids)).map(([a, b]) => a + b)).toEqual(Array(10).fill(1));
  }, 60_000);
});
