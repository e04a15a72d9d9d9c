import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { createTestDataSource, dropTestDataSource, openReplicaDataSource } from '@pixauto/event-store/testing';
import { RECURRENCE_MIGRATIONS } from './migrations';
import { claimDueChargeCreations, claimDueSandboxAttempts, DueCursor } from './recurrence-work-claims';

// The scheduler's claims on the real PostgreSQL server: which recurrences are due at each tenant's now, in what
// order, how a run's cursor walks through them without meeting a recurrence twice, and how two replicas share them.

const now = new Date('2026-11-22T15:00:00.000Z');
const hour = 3_600_000;

let dataSource: DataSource;
/** A second replica's pool on the same database. */
let replica: DataSource;

beforeAll(async () => {
  dataSource = await createTestDataSource('due_charges', [TenantClocksTable1763800000060, ...RECURRENCE_MIGRATIONS]);
  replica = await openReplicaDataSource(dataSource);
});

afterAll(async () => {
  await replica?.destroy();
  await dropTestDataSource(dataSource);
});

beforeEach(async () => {
  await dataSource.query('TRUNCATE charge_schedule, charges, tenant_clocks');
});

/** A recurrence whose next charge is due at `at` (null: none planned), as the projection leaves its schedule row. */
async function recurrence(accountId: string, environment: string, recurrenceId: string, at: Date | null): Promise<void> {
  await dataSource.query('INSERT INTO charge_schedule (account_id, environment, recurrence_id, next_charge_at, version) VALUES ($1, $2, $3, $4, 3)', [
    accountId,
    environment,
    recurrenceId,
    at,
  ]);
}

const ids = (rows: { recurrenceId: string }[]) => rows.map((r) => r.recurrenceId);

/** A run's claims, released at once (as after the batch), so that only the cursor keeps it from a recurrence twice. */
async function dueChargeCreations(db: DataSource, limit: number, cursor?: DueCursor) {
  const claim = await claimDueChargeCreations(db.manager, now, limit, cursor);
  await claim.release();
  return claim.items;
}

describe('claimDueChargeCreations', () => {
  it('claims production recurrences due by now, the most overdue first, and none due later or unplanned', async () => {
    await recurrence('acc-1', 'production', 'r-late', new Date(now.getTime() + 1));
    await recurrence('acc-1', 'production', 'r-now', now);
    await recurrence('acc-2', 'production', 'r-old', new Date(now.getTime() - 48 * hour));
    await recurrence('acc-1', 'production', 'r-none', null);

    const due = await dueChargeCreations(dataSource, 10);

    expect(ids(due)).toEqual(['r-old', 'r-now']);
    expect(due[0].tenant).toEqual({ accountId: 'acc-2', environment: 'production' });
  });

  it("claims a sandbox recurrence by its own tenant's clock, not by another tenant's", async () => {
    await dataSource.query('INSERT INTO tenant_clocks (account_id, offset_ms, version) VALUES ($1, $2, 1)', ['acc-ahead', 30 * 24 * hour]);
    await recurrence('acc-ahead', 'sandbox', 'r-ahead', new Date(now.getTime() + 10 * 24 * hour));
    await recurrence('acc-still', 'sandbox', 'r-still', new Date(now.getTime() + 10 * 24 * hour));
    await recurrence('acc-ahead', 'production', 'r-prod', new Date(now.getTime() + 10 * 24 * hour)); // production never shifts

    expect(ids(await dueChargeCreations(dataSource, 10))).toEqual(['r-ahead']);
  });

  it('walks a run through every due recurrence once, page after page, across environments and equal instants', async () => {
    for (let i = 0; i < 7; i++) await recurrence('acc-1', i % 2 === 0 ? 'production' : 'sandbox', `r-${i}`, new Date(now.getTime() - (i % 3) * hour));
    const claimed: string[] = [];
    let cursor;
    for (;;) {
      const page = await dueChargeCreations(dataSource, 3, cursor);
      if (page.length === 0) break;
      claimed.push(...ids(page));
      cursor = page[page.length - 1].cursor;
    }
    expect(claimed).toEqual(['r-2', 'r-5', 'r-1', 'r-4', 'r-0', 'r-3', 'r-6']);
  });

  it('keeps the cursor at full precision, so a row stored with microseconds is not claimed again', async () => {
    await recurrence('acc-1', 'production', 'r-micro', now);
    await dataSource.query(`UPDATE charge_schedule SET next_charge_at = '2026-11-22T14:00:00.123456Z' WHERE recurrence_id = 'r-micro'`);

    const [first] = await dueChargeCreations(dataSource, 10);
    expect(await dueChargeCreations(dataSource, 10, first.cursor)).toEqual([]);
  });
});

describe('two replicas claiming due charge creations', () => {
  it("never take one recurrence twice, each takes a share, and a killed replica's claim is taken over after its lease", async () => {
    for (let i = 0; i < 300; i++)
      await recurrence('acc-1', i % 3 === 0 ? 'sandbox' : 'production', `r-${String(i).padStart(3, '0')}`, new Date(now.getTime() - (i % 7) * hour));
    // Each replica's run walks its cursor, claiming pages of 25 while the other does the same, holding what it took.
    const run = async (db: DataSource): Promise<string[]> => {
      const taken: string[] = [];
      let cursor: DueCursor | undefined;
      for (;;) {
        const claim = await claimDueChargeCreations(db.manager, now, 25, cursor);
        if (claim.items.length === 0) return taken;
        taken.push(...ids(claim.items));
        cursor = claim.items[claim.items.length - 1].cursor;
        await sleep(5);
      }
    };
    const [a, b] = await Promise.all([run(dataSource), run(replica)]);

    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect(new Set([...a, ...b]).size).toBe(300);
    expect(a.length / 300).toBeGreaterThanOrEqual(0.35);
    expect(a.length / 300).toBeLessThanOrEqual(0.65);
    // Nobody released: every claim is a killed replica's now. None is claimable until the lease ends.
    expect(await claimDueChargeCreations(dataSource.manager, now, 10).then((c) => c.items)).toEqual([]);
    await dataSource.query(`UPDATE charge_schedule SET claimed_until = now() - interval '1 millisecond' WHERE recurrence_id = ANY($1)`, [b]);
    expect(ids((await claimDueChargeCreations(dataSource.manager, now, 1000)).items).sort()).toEqual([...b].sort());
  });
});

describe('claimDueSandboxAttempts', () => {
  it("finds a sandbox charge whose attempt day came on its tenant's clock, never a production one", async () => {
    const charge = (environment: string, chargeId: string, attemptAt: Date) =>
      dataSource.query(
        `INSERT INTO charges (account_id, environment, charge_id, recurrence_id, type, cycle, due_date, amount_centavos, status, retries, attempt_date,
           attempt_at, txid, created_at, version)
         VALUES ('acc-1', $1, $2, 'r-1', 'cycle', $3, '2026-11-22', 1000, 'SCHEDULED', 0, '2026-11-22', $4, $2, $4, 1)`,
        [environment, chargeId, Number(chargeId.slice(-1)), attemptAt],
      );
    await charge('production', 'c-1', new Date(now.getTime() - hour));
    await charge('sandbox', 'c-2', new Date(now.getTime() - hour));
    await charge('sandbox', 'c-3', new Date(now.getTime() + hour));

    expect((await claimDueSandboxAttempts(dataSource.manager, now, 10)).items.map((a) => a.chargeId)).toEqual(['c-2']);
    // Claimed: another replica's run finds nothing to settle until this one's claim is released or its lease ends.
    expect((await claimDueSandboxAttempts(replica.manager, now, 10)).items).toEqual([]);
  });
});

describe("an account's charges by due date (GET /v2/automatic-pix/charges)", () => {
  it('are read through the due-date index, not the whole table', async () => {
    const plan: { 'QUERY PLAN': string }[] = await dataSource.transaction(async (tx) => {
      // The table is empty here: without this the planner would rightly read it whole, which proves nothing.
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query(
        `EXPLAIN SELECT charge_id FROM charges WHERE account_id = $1 AND environment = $2 AND due_date >= $3 AND due_date <= $4
          ORDER BY due_date, recurrence_id, cycle NULLS FIRST LIMIT 100`,
        ['acc-1', 'sandbox', '2026-12-01', '2026-12-31'],
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using charges_due|Bitmap Index Scan on charges_due/);
  });
});
