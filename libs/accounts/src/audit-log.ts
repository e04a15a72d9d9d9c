import { EntityManager } from 'typeorm';
import { AuditAction, AuditActorType, AuditLogEntry, AuditLogPage, Environment } from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';
import { sql, SqlStatement } from '@pixauto/event-store';

// An account's audit log (docs/decisions/audit-log.md): who changed what of its keys, secrets, team, limits and test
// clock, and when. An entry is written in the transaction of the change it records wherever that change is the
// gateway's own write (keys, secrets, team, test clock), so neither is ever without the other; the table refuses
// UPDATE, DELETE and TRUNCATE (AuditLog migration).

/** Who made a change. */
export type AuditActor = { type: 'console_user'; email: string } | { type: 'console' } | { type: 'operator' } | { type: 'api_key'; keyId: string };

export const OPERATOR: AuditActor = { type: 'operator' };

/** The actor the admin API's AUDIT_ACTOR_HEADER names; the operator when there is none (an email always has an @, `console` never). */
export function actorOfHeader(header: unknown): AuditActor {
  if (header === 'console') return { type: 'console' };
  if (typeof header !== 'string' || header.length > 1024) return OPERATOR;
  try {
    const email = decodeURIComponent(header);
    return email.includes('@') ? { type: 'console_user', email } : OPERATOR;
  } catch {
    return OPERATOR;
  }
}

export interface AuditRecord {
  accountId: string;
  /** Null for the team, which is the account's in both environments. */
  environment: Environment | null;
  at: Date;
  actor: AuditActor;
  action: AuditAction;
  object: string;
  detail?: Record<string, unknown>;
}

const actorColumns = (actor: AuditActor): [AuditActorType, string | null] => {
  switch (actor.type) {
    case 'console_user':
      return ['console_user', actor.email];
    case 'api_key':
      return ['api_key', actor.keyId];
    default:
      return [actor.type, null];
  }
};

/** The entry's INSERT, to run in the change's own transaction (or inside an event append's statement). */
export function auditStatement(record: AuditRecord): SqlStatement {
  const [actorType, actor] = actorColumns(record.actor);
  return sql(`INSERT INTO audit_log (account_id, environment, at, actor_type, actor, action, object, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`, [
    record.accountId,
    record.environment,
    record.at,
    actorType,
    actor,
    record.action,
    record.object,
    JSON.stringify(record.detail ?? {}),
  ]);
}

/** Writes the entry with `db`: the transaction of the change it records. */
export async function recordAudit(db: EntityManager, record: AuditRecord): Promise<void> {
  const { text, values } = auditStatement(record);
  await db.query(text, values);
}

/** Entries written together by one statement: PostgreSQL takes at most 65,535 parameters, and 8 arrays need only 8. */
const MAX_BATCH = 500;

/**
 * Entries of changes the gateway does not own (a customer limit, a webhook endpoint), each written before its change
 * is answered, grouped as PostgreSQL groups commits: the first entry is written at once, and those that arrive while
 * an INSERT runs go into the next one, a statement and a commit for all of them. Each caller's promise settles once
 * its own entry is stored (or the statement failed).
 */
export class AuditWriter {
  private pending: { record: AuditRecord; settle: (error?: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: EntityManager) {}

  write(record: AuditRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ record, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const error = await this.insert(batch.map((entry) => entry.record)).then(
        () => undefined,
        (failure: unknown) => failure ?? new Error('the audit log could not be written'),
      );
      for (const entry of batch) entry.settle(error);
    }
    this.writing = false;
  }

  private async insert(records: AuditRecord[]): Promise<void> {
    const actors = records.map((record) => actorColumns(record.actor));
    await this.db.query(
      `INSERT INTO audit_log (account_id, environment, at, actor_type, actor, action, object, detail)
       SELECT account_id, environment, at, actor_type, actor, action, object, detail::jsonb
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         AS u(account_id, environment, at, actor_type, actor, action, object, detail)`,
      [
        records.map((record) => record.accountId),
        records.map((record) => record.environment),
        records.map((record) => record.at),
        actors.map(([type]) => type),
        actors.map(([, actor]) => actor),
        records.map((record) => record.action),
        records.map((record) => record.object),
        records.map((record) => JSON.stringify(record.detail ?? {})),
      ],
    );
  }
}

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 50;

/** An account's entries, newest first, `limit` (1 to 100, 50) a page, after `cursor` (a previous page's next_cursor). */
export async function readAuditLog(db: EntityManager, accountId: string, query: { cursor?: unknown; limit?: unknown }): Promise<AuditLogPage> {
  const limitText = query.limit === undefined || query.limit === '' ? String(DEFAULT_LIMIT) : query.limit;
  const limit = typeof limitText === 'string' && /^[1-9]\d{0,2}$/.test(limitText) && Number(limitText) <= MAX_LIMIT ? Number(limitText) : undefined;
  const cursor = query.cursor === undefined || query.cursor === '' ? undefined : query.cursor;
  const before = typeof cursor === 'string' && /^[1-9]\d{0,18}$/.test(cursor) ? cursor : undefined;
  const problems = [
    ...(limit === undefined ? [Messages.admin.requestLogLimit] : []),
    ...(cursor !== undefined && before === undefined ? [Messages.admin.requestLogCursor] : []),
  ];
  if (problems.length > 0) return refuse(validation(...problems));
  const rows: (Omit<AuditLogEntry, 'at'> & { at: Date })[] = await db.query(
    `SELECT id::text AS id, at, environment, actor_type, actor, action, object, detail FROM audit_log
      WHERE account_id = $1 AND ($2::bigint IS NULL OR audit_log.id < $2::bigint) ORDER BY audit_log.id DESC LIMIT $3`,
    [accountId, before ?? null, (limit as number) + 1],
  );
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => ({ ...row, at: row.at.toISOString() })),
    next_cursor: rows.length > (limit as number) ? page[page.length - 1].id : null,
  };
}

/** The log as the admin API reads it. */
export class AuditLogReader {
  constructor(private readonly db: EntityManager) {}

  page(accountId: string, query: { cursor?: unknown; limit?: unknown }): Promise<AuditLogPage> {
    return readAuditLog(this.db, accountId, query);
  }
}
