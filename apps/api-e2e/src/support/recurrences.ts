import { randomUUID } from 'node:crypto';
import { queryService } from './database';
import { admin, freshCpf, Merchant } from './fixtures';
import { Answer, call } from './http';
import { RunningSystem } from './running-system';

// Helpers of the recurrence suites (docs/api/recurrences.md, and the sandbox payer).

export const RECURRENCES = '/v2/automatic-pix/recurrences';
/** A recurrence's events and its charges': one stream, one key, one topic. */
export const RECURRENCE_TOPIC = 'pixauto.recurrences.events.v1';

export const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
export const RECURRENCE_NOT_FOUND = { status: 404, body: { message: 'Recurrence not found' } };

const brasiliaCalendar = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Brasília calendar day (YYYY-MM-DD) `days` after today, from the real clock: the tests check the system's, not use it. */
export function brasiliaDay(days = 0): string {
  // eslint-disable-next-line no-restricted-syntax -- the wall clock is what the system's date rules are checked against
  const today = brasiliaCalendar.format(new Date());
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** A transaction_id no other test uses (at most 35 characters). */
export const freshTransactionId = (prefix = 'rec'): string => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** A valid create body with only the required fields; `overrides` replaces top-level fields. */
export function recurrenceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_id: freshTransactionId(),
    debtor: { document_number: freshCpf(), name: 'Maria Souza' },
    schedule: { start_date: brasiliaDay(1), periodicity: 'MONTHLY' },
    amount: 49.9,
    retry_policy: 'NOT_ALLOWED',
    ...overrides,
  };
}

/** An account with one production and one sandbox key; `account` goes to POST /admin/accounts (e.g. wallet: false). */
export async function openAccount(system: RunningSystem, account: Record<string, unknown> = {}, keyOptions: object = {}): Promise<Merchant> {
  const opened = await admin(system, 'POST', '/admin/accounts', { name: 'Loja Recorrente', ...account });
  expect(opened.status).toBe(201);
  const key = async (environment: string) => {
    const issued = await admin(system, 'POST', `/admin/accounts/${opened.body.account_id}/api-keys`, { environment, ...keyOptions });
    expect(issued.status).toBe(201);
    return issued.body.api_key as string;
  };
  return { accountId: opened.body.account_id, production: await key('production'), sandbox: await key('sandbox') };
}

/** The merchant API of one environment of one account. */
export interface RecurrenceClient {
  create(json: unknown): Promise<Answer>;
  get(id: string): Promise<Answer>;
  list(query: string): Promise<Answer>;
  update(id: string, json: unknown): Promise<Answer>;
  authorize(id: string): Promise<Answer>;
  reject(id: string): Promise<Answer>;
}

export function recurrenceClient(system: RunningSystem, merchant: Merchant, environment: 'production' | 'sandbox' = 'production'): RecurrenceClient {
  const port = environment === 'production' ? system.profile.gateway : system.profile.sandbox;
  const key = environment === 'production' ? merchant.production : merchant.sandbox;
  return {
    create: (json) => call(port, 'POST', RECURRENCES, { key, json }),
    get: (id) => call(port, 'GET', `${RECURRENCES}/${encodeURIComponent(id)}`, { key }),
    list: (query) => call(port, 'GET', `${RECURRENCES}${query}`, { key }),
    update: (id, json) => call(port, 'PATCH', `${RECURRENCES}/${encodeURIComponent(id)}`, { key, json }),
    authorize: (id) => call(port, 'POST', `/v2/sandbox/recurrences/${encodeURIComponent(id)}/authorize`, { key }),
    reject: (id) => call(port, 'POST', `/v2/sandbox/recurrences/${encodeURIComponent(id)}/reject`, { key }),
  };
}

/** What the recurrence database holds for a transaction_id of an account: read-model rows, events and outbox rows. */
export async function storedFor(system: RunningSystem, accountId: string, transactionId: string): Promise<{ rows: number; events: number; outbox: number }> {
  const db = (sql: string) => queryService(system.profile.databasePrefix, 'recurrence', sql, [accountId, transactionId]).then((rows) => Number(rows[0].n));
  return {
    rows: await db('SELECT count(*)::int AS n FROM recurrences WHERE account_id = $1 AND transaction_id = $2'),
    events: await db(`SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND data->>'transaction_id' = $2`),
    outbox: await db(`SELECT count(*)::int AS n FROM outbox WHERE payload->'tenant'->>'account_id' = $1 AND payload->'data'->>'transaction_id' = $2`),
  };
}

/** The events recorded for one recurrence, oldest first. */
export async function eventsOf(system: RunningSystem, recurrenceId: string): Promise<{ type: string; version: number }[]> {
  const rows = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT type, version FROM events WHERE stream_id LIKE '%:' || $1 ORDER BY position`,
    [recurrenceId],
  );
  return rows.map((row) => ({ type: String(row.type), version: Number(row.version) }));
}

/** The fields of an EMV text (id → value), one level: a BR Code, or the value of one of its templates (e.g. tag 80). */
export function emvFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < text.length;) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(text.slice(at + 2, at + 4)) || at + 4 + length > text.length) throw new Error(`not EMV at ${at}: ${text}`);
    fields.set(id, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** The top-level fields of a BR Code, after checking its CRC16 (tag 63, the last field). */
export function brCodeFields(code: string): Map<string, string> {
  const crcAt = code.length - 4;
  if (code.slice(crcAt - 4, crcAt) !== '6304' || crc16(code.slice(0, crcAt)) !== code.slice(crcAt)) throw new Error(`BR Code CRC mismatch: ${code}`);
  return emvFields(code);
}

/** CRC16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as the BR Code specifies, over everything up to and including "6304". */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Where the recurrence database stands for an account: its read-model rows, and the last event and outbox positions overall. */
export interface DatabaseMark {
  rows: number;
  position: number;
  outboxId: number;
}

export async function markRecurrenceDatabase(system: RunningSystem, accountId: string): Promise<DatabaseMark> {
  const [row] = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT (SELECT count(*) FROM recurrences WHERE account_id = $1)::int AS rows,
            (SELECT coalesce(max(position), 0) FROM events)::bigint AS position,
            (SELECT coalesce(max(id), 0) FROM outbox)::bigint AS outbox_id`,
    [accountId],
  );
  return { rows: Number(row.rows), position: Number(row.position), outboxId: Number(row.outbox_id) };
}

/** What the account wrote since `mark`: new read-model rows, events and outbox rows (all zero after a refused request). */
export async function writtenSince(system: RunningSystem, accountId: string, mark: DatabaseMark): Promise<{ rows: number; events: number; outbox: number }> {
  const [row] = await queryService(
    system.profile.databasePrefix,
    'recurrence',
    `SELECT (SELECT count(*) FROM recurrences WHERE account_id = $1)::int AS rows,
            (SELECT count(*) FROM events WHERE account_id = $1 AND position > $2)::int AS events,
            (SELECT count(*) FROM outbox WHERE payload->'tenant'->>'account_id' = $1 AND id > $3)::int AS outbox`,
    [accountId, mark.position, mark.outboxId],
  );
  return { rows: Number(row.rows) - mark.rows, events: Number(row.events), outbox: Number(row.outbox) };
}
