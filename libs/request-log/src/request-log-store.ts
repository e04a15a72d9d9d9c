import { EntityManager } from 'typeorm';
import { Validated } from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';
import { RequestLogLine, RequestLogPage } from '@pixauto/contracts';

// Where the request log lives: the gateway's database, one partition a day (request-log.migration.ts).

const DAY_MS = 86_400_000;
const COLUMNS = [
  ['account_id', 'text'],
  ['environment', 'text'],
  ['at', 'timestamptz'],
  ['request_id', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['status', 'smallint'],
  ['duration_ms', 'real'],
  ['idempotency_key', 'text'],
  ['key_id', 'text'],
  ['request_body', 'text'],
  ['response_body', 'text'],
  ['console_user', 'text'],
] as const satisfies readonly (readonly [keyof RequestLogLine, string])[];

/** Many lines in one statement: one array a column (unnest), so a batch costs one round trip whatever its size. */
export async function insertRequestLines(db: EntityManager, lines: readonly RequestLogLine[]): Promise<void> {
  if (lines.length === 0) return;
  const names = COLUMNS.map(([name]) => name).join(', ');
  const arrays = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  await db.query(
    `INSERT INTO request_log (${names}) SELECT * FROM unnest(${arrays})`,
    COLUMNS.map(([name]) => lines.map((line) => line[name])),
  );
}

const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
const partitionOf = (day: string): string => `request_log_${day.replaceAll('-', '')}`;

/**
 * The partitions from `today` to `daysAhead` days later made if missing, and those wholly older than `retentionDays`
 * dropped. Several gateway processes run it: an advisory lock in the transaction lets one at a time touch the catalog.
 */
export async function keepRequestLogDays(db: EntityManager, today: Date, retentionDays: number, daysAhead = 2): Promise<{ dropped: string[] }> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('request_log partitions'))`);
    for (let ahead = 0; ahead <= daysAhead; ahead++) {
      const day = dayOf(new Date(today.getTime() + ahead * DAY_MS));
      const next = dayOf(new Date(today.getTime() + (ahead + 1) * DAY_MS));
      await tx.query(`CREATE TABLE IF NOT EXISTS ${partitionOf(day)} PARTITION OF request_log FOR VALUES FROM ('${day}') TO ('${next}')`);
    }
    const oldest = partitionOf(dayOf(new Date(today.getTime() - retentionDays * DAY_MS)));
    const rows: { name: string }[] = await tx.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = 'request_log' AND c.relname < $1 ORDER BY c.relname`,
      [oldest],
    );
    for (const { name } of rows) await tx.query(`DROP TABLE ${name}`);
    return { dropped: rows.map((row) => row.name) };
  });
}

/** What the console asks of an account's log in one environment: the newest first, filtered, a page at a time. */
export interface RequestLogQuery {
  account_id: string;
  environment: 'production' | 'sandbox';
  /** Only lines since this instant: now less the retention, or later. */
  since: Date;
  request_id?: string;
  /** Only failed requests (status 400 and above). */
  failed?: boolean;
  method?: string;
  /** Lines whose path starts with this. */
  path?: string;
  /** Not the lines of these keys (the console leaves out its own requests). */
  exclude_key_ids?: string[];
  /** Where the previous page ended (its `next_cursor`). */
  cursor?: PageCursor;
  limit: number;
}

/** The last line of a page: the next page starts after it (lines of the same millisecond are ordered by request id). */
export interface PageCursor {
  at: Date;
  request_id: string;
}

/** A cursor as the console carries it: opaque text. */
export const cursorText = (cursor: PageCursor): string => Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.request_id])).toString('base64url');

/** The cursor a text names, or undefined for text no page gave out. */
export function cursorOf(text: string): PageCursor | undefined {
  try {
    const [at, requestId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    const date = typeof at === 'string' ? new Date(at) : undefined;
    return date && !Number.isNaN(date.getTime()) && typeof requestId === 'string' ? { at: date, request_id: requestId } : undefined;
  } catch {
    return undefined;
  }
}

export async function findRequestLines(db: EntityManager, query: RequestLogQuery): Promise<RequestLogPage> {
  const where = ['account_id = $1', 'environment = $2', 'at >= $3'];
  const params: unknown[] = [query.account_id, query.environment, query.since];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (query.request_id !== undefined) add((n) => `request_id = ${n}`, query.request_id);
  if (query.failed) where.push('status >= 400');
  if (query.method !== undefined) add((n) => `method = ${n}`, query.method);
  if (query.path !== undefined) add((n) => `starts_with(path, ${n})`, query.path);
  if (query.exclude_key_ids !== undefined) add((n) => `key_id <> ALL(${n}::text[])`, query.exclude_key_ids);
  if (query.cursor !== undefined) {
    params.push(query.cursor.at, query.cursor.request_id);
    where.push(`(at, request_id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(query.limit + 1);
  const rows: (Omit<RequestLogLine, 'at'> & { at: Date })[] = await db.query(
    `SELECT ${COLUMNS.map(([name]) => name).join(', ')} FROM request_log WHERE ${where.join(' AND ')} ORDER BY at DESC, request_id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    requests: page.map((row) => ({ ...row, at: row.at.toISOString(), duration_ms: Number(row.duration_ms) })),
    next_cursor: rows.length > query.limit ? cursorText(last) : null,
  };
}

/**
 * When each of these keys of the account last made a request, since `since` (the retention): one statement for every
 * key, each key's newest line found through request_log_by_key. A key without a line since then is not in the map.
 */
export async function lastUseOfKeys(db: EntityManager, accountId: string, keyIds: readonly string[], since: Date): Promise<Map<string, Date>> {
  if (keyIds.length === 0) return new Map();
  const rows: { key_id: string; at: Date | null }[] = await db.query(
    `SELECT k.key_id, (SELECT r.at FROM request_log r WHERE r.key_id = k.key_id AND r.account_id = $1 AND r.at >= $3 ORDER BY r.at DESC LIMIT 1) AS at
       FROM unnest($2::text[]) AS k (key_id)`,
    [accountId, keyIds, since],
  );
  return new Map(rows.filter((row) => row.at !== null).map((row) => [row.key_id, row.at as Date]));
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 50;
const MAX_TEXT = 2048;

/**
 * An operator's or the console's query of one account's log in one environment: `request_id`, `method`, `path` (a
 * prefix) and `exclude_key_ids` (comma-separated) narrow it, `failed=true` keeps the failed requests, `limit` (1 to 100, 50) and `cursor` page it; never
 * further back than the retention.
 */
export function requestLogQueryOf(
  tenant: { account_id: string; environment: 'production' | 'sandbox' },
  query: Record<string, unknown>,
  now: Date,
  retentionDays: number,
): Validated<RequestLogQuery> {
  const A = Messages.admin;
  const problems: string[] = [];
  const text = (field: string): string | undefined => {
    const value = query[field];
    if (value === undefined || value === '') return undefined;
    if (typeof value === 'string' && value.length <= MAX_TEXT) return value;
    problems.push(A.requestLogText(field));
    return undefined;
  };
  const request_id = text('request_id');
  const method = text('method')?.toUpperCase();
  const path = text('path');
  const exclude_key_ids = text('exclude_key_ids')?.split(',');
  const failed = query.failed === undefined || query.failed === '' ? false : query.failed === 'true' ? true : query.failed === 'false' ? false : undefined;
  if (failed === undefined) problems.push(A.requestLogFailed);
  const limitText = query.limit === undefined || query.limit === '' ? String(DEFAULT_LIMIT) : query.limit;
  const limit = typeof limitText === 'string' && /^[1-9]\d{0,2}$/.test(limitText) && Number(limitText) <= MAX_LIMIT ? Number(limitText) : undefined;
  if (limit === undefined) problems.push(A.requestLogLimit);
  const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? cursorOf(query.cursor) : undefined;
  if (query.cursor !== undefined && query.cursor !== '' && cursor === undefined) problems.push(A.requestLogCursor);
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  return {
    ok: true,
    value: {
      ...tenant,
      since: new Date(now.getTime() - retentionDays * DAY_MS),
      request_id,
      failed,
      method,
      path,
      exclude_key_ids,
      cursor,
      limit: limit as number,
    },
  };
}

/** The log as the admin API reads it: one account's requests in one environment, within the retention. */
export class RequestLogReader {
  constructor(
    private readonly db: EntityManager,
    private readonly now: () => Date,
    private readonly retentionDays: number,
  ) {}

  /** Each key's last request within the retention, and the retention's start: a key not in the map made none since. */
  async lastUse(accountId: string, keyIds: readonly string[]): Promise<{ since: Date; lastUsed: Map<string, Date> }> {
    const since = new Date(this.now().getTime() - this.retentionDays * DAY_MS);
    return { since, lastUsed: await lastUseOfKeys(this.db, accountId, keyIds, since) };
  }

  page(account_id: string, environment: 'production' | 'sandbox', query: Record<string, unknown>): Promise<RequestLogPage> {
    const request = requestLogQueryOf({ account_id, environment }, query, this.now(), this.retentionDays);
    return request.ok ? findRequestLines(this.db, request.value) : refuse(request.refusal);
  }
}
