import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { until } from '@pixauto/testing';
import { createTestDataSource, dropTestDataSource, openReplicaDataSource } from './testing/test-database';
import { claimRows, ClaimTarget, dueRowsSql } from './work-claims';

// Claims of due work on the real PostgreSQL server, two replicas on two pools over one table: each row worked on
// once, both replicas doing a share, a dead replica's rows taken over when its lease ends, a live one's renewed.

const JOBS: ClaimTarget = { table: 'jobs', keys: { id: 'bigint' } };

let first: DataSource;
let second: DataSource;

beforeAll(async () => {
  first = await createTestDataSource('work_claims');
  await first.query(`CREATE TABLE jobs (id bigint PRIMARY KEY, due_at timestamptz NOT NULL, done_by text[] NOT NULL DEFAULT '{}',
    claimed_by text, claimed_until timestamptz)`);
  second = await openReplicaDataSource(first);
});

afterAll(async () => {
  await second?.destroy();
  await dropTestDataSource(first);
});

beforeEach(() => first.query('TRUNCATE jobs'));

const addJobs = (count: number) =>
  first.query(`INSERT INTO jobs (id, due_at) SELECT i, now() - i * interval '1 second' FROM generate_series(1, $1) AS i`, [count]);

/** Claims up to `limit` due jobs not done yet, the most overdue first. */
const claim = (db: DataSource, limit: number, leaseMs = 5000) =>
  claimRows(
    db.manager,
    JOBS,
    {
      candidates: dueRowsSql(JOBS, `due_at <= now() AND cardinality(done_by) = 0`, 'due_at', '$1'),
      returning: 't.id, t.due_at',
      orderBy: 'due_at',
      params: [limit],
      toItem: (row) => Number(row.id),
    },
    leaseMs,
  );

/** A replica's task: claims a batch, works on it (a round trip's pause, then records itself), until nothing is due. */
async function replica(db: DataSource, name: string): Promise<number> {
  let done = 0;
  for (;;) {
    const batch = await claim(db, 10);
    if (batch.items.length === 0) return done;
    await batch.hold(async (ids) => {
      await sleep(20);
      await db.query(`UPDATE jobs SET done_by = done_by || $2::text WHERE id = ANY($1)`, [ids, name]);
    });
    done += batch.items.length;
  }
}

const doneBy = async (): Promise<{ id: string; done_by: string[] }[]> => first.query('SELECT id, done_by FROM jobs ORDER BY id');

describe('claimRows', () => {
  it('shares due work between two replicas: each row done exactly once, each replica a share', async () => {
    await addJobs(400);

    const [a, b] = await Promise.all([replica(first, 'a'), replica(second, 'b')]);

    const jobs = await doneBy();
    expect(jobs.filter((job) => job.done_by.length !== 1)).toEqual([]);
    expect(a + b).toBe(400);
    expect(a / 400).toBeGreaterThanOrEqual(0.35);
    expect(a / 400).toBeLessThanOrEqual(0.65);
    expect(jobs.filter((job) => job.done_by[0] === 'a')).toHaveLength(a);
  });

  it('claims at once from two pools without taking a row twice, in order, and skips what the other holds', async () => {
    await addJobs(100);

    const [x, y] = await Promise.all([claim(first, 30), claim(second, 30)]);

    expect(x.items.filter((id) => y.items.includes(id))).toEqual([]);
    expect(x.items.length + y.items.length).toBe(60);
    expect(x.items).toEqual([...x.items].sort((p, q) => q - p)); // the most overdue (highest id) first
    const next = await claim(first, 100);
    expect(next.items).toHaveLength(40);
    expect(next.items.some((id) => x.items.includes(id) || y.items.includes(id))).toBe(false);
  });

  it("takes over a killed replica's claim once its lease has ended, and not before", async () => {
    await addJobs(20);
    // The killed replica: it claims, then neither works, renews nor releases.
    const killed = await claim(second, 20, 1500);
    const claimedAt = performance.now();
    expect(killed.items).toHaveLength(20);
    expect((await claim(first, 20)).items).toEqual([]);

    await until(async () => (await claim(first, 20, 5000)).items.length === 20, { timeoutMs: 6000, intervalMs: 100, what: 'the killed claim taken over' });
    const tookMs = performance.now() - claimedAt;
    expect(tookMs).toBeGreaterThanOrEqual(1400);
    expect(tookMs).toBeLessThan(4500);
  });

  it('renews the lease of rows worked on longer than it, and releases them when done, so they are claimable again', async () => {
    await addJobs(5);
    const holder = await claim(first, 5, 1500);
    let takenMeanwhile = 0;
    await holder.hold(async () => {
      // Three leases long: without renewal the other replica would take the rows after the first.
      for (let i = 0; i < 10; i++) {
        await sleep(450);
        takenMeanwhile += (await claim(second, 5)).items.length;
      }
    });
    expect(takenMeanwhile).toBe(0);
    // Released undone (the work did not record itself): due again, and claimable at once.
    expect((await claim(second, 5)).items).toHaveLength(5);
  });
});
