import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

// Background work shared by the replicas of a service (docs/decisions/background-work.md): each run of a periodic
// task claims the due rows it will work on, so two replicas never take the same row and a replica that dies lets
// its rows go when their lease ends.

/** How long a claim holds unless renewed: a replica killed mid-work leaves its rows to the others after this. */
export const WORK_LEASE_MS = Number(process.env.WORK_LEASE_MS ?? 5_000);

/** A row no one holds: never claimed, released, or its lease ended (the claimer died). For the candidates' WHERE. */
export const UNCLAIMED = '(claimed_until IS NULL OR claimed_until < now())';

/** A table whose rows are claimed: it has `claimed_by text` and `claimed_until timestamptz`, and this primary key. */
export interface ClaimTarget {
  table: string;
  /** The primary key's columns and their SQL types, as `{ account_id: 'text', id: 'bigint' }`. */
  keys: Readonly<Record<string, string>>;
}

/**
 * The statement that claims: `candidates` (a SELECT of the target's key columns that includes UNCLAIMED among its
 * conditions and locks FOR UPDATE SKIP LOCKED, so that two claims at once take different rows and neither waits)
 * names the rows; each is marked as the claimer's until now + the lease, and `returning` is read from it (alias `t`),
 * ordered by `orderBy` (columns of `returning`). The candidates use $1..$paramCount; the token and the lease follow.
 * The UPDATE checks UNCLAIMED again on the row it locked: a row claimed and committed since the candidates' snapshot
 * is not taken twice.
 */
export function claimSql(target: ClaimTarget, candidates: string, returning: string, orderBy: string, paramCount: number): string {
  const keys = Object.keys(target.keys);
  const unclaimed = UNCLAIMED.replace(/claimed_until/g, 't.claimed_until');
  return `WITH due AS (${candidates}),
    claimed AS (
      UPDATE ${target.table} t SET claimed_by = $${paramCount + 1}, claimed_until = now() + $${paramCount + 2} * interval '1 millisecond'
        FROM due WHERE ${keys.map((key) => `t.${key} = due.${key}`).join(' AND ')} AND ${unclaimed}
      RETURNING ${keys.map((key) => `t.${key} AS claim_${key}`).join(', ')}, ${returning})
    SELECT * FROM claimed ORDER BY ${orderBy}`;
}

/** The statement that renews (`claimed_until` as given) or releases (null) the claimer's rows among those listed by key. */
export function claimUpdateSql(target: ClaimTarget, claimedUntil: 'renew' | 'release'): string {
  const keys = Object.entries(target.keys);
  const set = claimedUntil === 'renew' ? `claimed_until = now() + $${keys.length + 2} * interval '1 millisecond'` : 'claimed_by = NULL, claimed_until = NULL';
  return `UPDATE ${target.table} t SET ${set}
    FROM unnest(${keys.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) AS held(${keys.map(([key]) => key).join(', ')})
    WHERE ${keys.map(([key]) => `t.${key} = held.${key}`).join(' AND ')} AND t.claimed_by = $${keys.length + 1}`;
}

/** A claimed row as `returning` read it, with its keys as claim_<key>. */
export type ClaimedRow = Record<string, unknown>;

/**
 * What one run of a task claimed. `hold` works on it while renewing the lease (every third of it), then lets the
 * rows go, done or not: a row still due (its bank call failed, say) is claimable again at once, as before claims.
 */
export class Claim<T> {
  /** The claimed rows' keys, one array per key column, for unnest. */
  private readonly keys: unknown[][];

  constructor(
    private readonly db: EntityManager,
    private readonly target: ClaimTarget,
    readonly token: string,
    rows: ClaimedRow[],
    readonly items: T[],
    private readonly leaseMs: number,
  ) {
    this.keys = Object.keys(target.keys).map((key) => rows.map((row) => row[`claim_${key}`]));
  }

  async renew(): Promise<void> {
    if (this.items.length > 0) await this.db.query(claimUpdateSql(this.target, 'renew'), [...this.keys, this.token, this.leaseMs]);
  }

  async release(): Promise<void> {
    if (this.items.length > 0) await this.db.query(claimUpdateSql(this.target, 'release'), [...this.keys, this.token]);
  }

  async hold<R>(work: (items: T[]) => Promise<R>): Promise<R> {
    const renewing = setInterval(() => void this.renew().catch(() => undefined), Math.max(100, Math.floor(this.leaseMs / 3)));
    try {
      return await work(this.items);
    } finally {
      clearInterval(renewing);
      // Not released (the database away, say): the lease ends on its own.
      await this.release().catch(() => undefined);
    }
  }
}

/** What a task claims: the candidates' SELECT (see claimSql), what to read from each claimed row and in what order. */
export interface ClaimQuery<T> {
  candidates: string;
  returning: string;
  orderBy: string;
  params: unknown[];
  toItem: (row: ClaimedRow) => T;
}

/** Claims the rows `candidates` names (see claimSql) for `leaseMs`; an empty claim when none is due or free. */
export async function claimRows<T>(db: EntityManager, target: ClaimTarget, query: ClaimQuery<T>, leaseMs: number = WORK_LEASE_MS): Promise<Claim<T>> {
  const token = randomUUID();
  const rows: ClaimedRow[] = await db.query(claimSql(target, query.candidates, query.returning, query.orderBy, query.params.length), [
    ...query.params,
    token,
    leaseMs,
  ]);
  return new Claim(db, target, token, rows, rows.map(query.toItem), leaseMs);
}

/** Candidates in one index order: the due rows of the target no one holds, the first `limit` by `orderBy`. */
export function dueRowsSql(target: ClaimTarget, where: string, orderBy: string, limitParam: string): string {
  return `SELECT ${Object.keys(target.keys).join(', ')} FROM ${target.table}
    WHERE (${where}) AND ${UNCLAIMED} ORDER BY ${orderBy} LIMIT ${limitParam} FOR UPDATE SKIP LOCKED`;
}

/** The claim columns a migration adds to a table whose rows a periodic task claims (nullable: adding them is instant). */
export const addClaimColumnsSql = (table: string): string => `ALTER TABLE ${table} ADD COLUMN claimed_by text, ADD COLUMN claimed_until timestamptz`;
export const dropClaimColumnsSql = (table: string): string => `ALTER TABLE ${table} DROP COLUMN claimed_by, DROP COLUMN claimed_until`;
