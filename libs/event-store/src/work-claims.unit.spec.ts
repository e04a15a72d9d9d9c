import { claimSql, claimUpdateSql, ClaimTarget, dueRowsSql } from './work-claims';

// The claim statements as text: their parameters numbered after the task's own, every key column matched.

const TARGET: ClaimTarget = { table: 'payouts', keys: { account_id: 'text', environment: 'text', id: 'bigint' } };
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('claimSql', () => {
  it("numbers the token and the lease after the candidates' parameters, matches every key and checks the row is still free", () => {
    const sql = oneLine(claimSql(TARGET, 'SELECT account_id, environment, id FROM payouts WHERE status = $1 LIMIT $2', 't.record', 'id', 2));
    expect(sql).toContain('SET claimed_by = $3, claimed_until = now() + $4 * interval');
    expect(sql).toContain('t.account_id = due.account_id AND t.environment = due.environment AND t.id = due.id');
    expect(sql).toContain('AND (t.claimed_until IS NULL OR t.claimed_until < now())');
    expect(sql).toContain('RETURNING t.account_id AS claim_account_id, t.environment AS claim_environment, t.id AS claim_id, t.record');
    expect(sql).toMatch(/SELECT \* FROM claimed ORDER BY id$/);
  });
});

describe('dueRowsSql', () => {
  it('selects the keys of due rows no one holds, in order, locked and skipping rows another claim is locking', () => {
    expect(oneLine(dueRowsSql(TARGET, 'status = $1', 'updated_at', '$3'))).toBe(
      'SELECT account_id, environment, id FROM payouts WHERE (status = $1) AND (claimed_until IS NULL OR claimed_until < now()) ' +
        'ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED',
    );
  });
});

describe('claimUpdateSql', () => {
  it('renews or releases only the rows of this claim (its token), by their keys as typed arrays', () => {
    const renew = oneLine(claimUpdateSql(TARGET, 'renew'));
    expect(renew).toContain('SET claimed_until = now() + $5 * interval');
    expect(renew).toContain('FROM unnest($1::text[], $2::text[], $3::bigint[]) AS held(account_id, environment, id)');
    expect(renew).toMatch(/AND t\.claimed_by = \$4$/);
    const release = oneLine(claimUpdateSql(TARGET, 'release'));
    expect(release).toContain('SET claimed_by = NULL, claimed_until = NULL FROM unnest');
    expect(release).toMatch(/AND t\.claimed_by = \$4$/);
  });
});
