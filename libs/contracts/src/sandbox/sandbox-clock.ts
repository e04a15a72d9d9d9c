import { Messages, validation } from '@pixauto/errors';
import { Validated } from '../validation';
import { isJsonObject } from '../recurrences/fields';

// The sandbox test clock of a tenant (docs/decisions/sandbox-clock.md): how far it runs ahead of real time. It only moves forward.

export const MAX_CLOCK_ADVANCE_DAYS = 3660;
const HOUR_MS = 60 * 60 * 1000;

/** On Topics.sandboxClock, keyed by account: every service keeps the latest offset of each sandbox tenant. */
export interface SandboxClockAdvancedData {
  account_id: string;
  /** The whole offset from real time after this advance, in milliseconds. */
  offset_ms: number;
  advanced_ms: number;
}

export const SandboxClockEventTypes = { advanced: 'sandbox.clock_advanced' } as const;

// GET /v2/sandbox/clock and POST /v2/sandbox/clock/advance.
/** The sandbox account's test clock: the time every date rule, due date and expiry of the account follows. */
export interface SandboxClockResponse {
  /** The account's current time, ISO 8601 in UTC. */
  now: string;
  /** The account's current date in Brasília time, YYYY-MM-DD: the "today" of date rules such as `start_date`. */
  today: string;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** {days?, hours?}: non-negative integers, at least one of them, at most MAX_CLOCK_ADVANCE_DAYS in all. Returns milliseconds. */
export function validateClockAdvance(body: unknown): Validated<{ ms: number }> {
  const C = Messages.sandboxClock;
  const b = body ?? {};
  if (!isJsonObject(b)) return { ok: false, refusal: validation(Messages.request.notAnObject) };
  const unknown = Object.keys(b).filter((key) => key !== 'days' && key !== 'hours');
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  if (b.days === undefined && b.hours === undefined) return { ok: false, refusal: validation(C.nothingToAdvance) };
  const problems = [
    ...(b.days !== undefined && !isCount(b.days) ? [C.daysInvalid] : []),
    ...(b.hours !== undefined && !isCount(b.hours) ? [C.hoursInvalid] : []),
  ];
  if (problems.length > 0) return { ok: false, refusal: validation(...problems) };
  const hours = ((b.days as number | undefined) ?? 0) * 24 + ((b.hours as number | undefined) ?? 0);
  if (hours > MAX_CLOCK_ADVANCE_DAYS * 24) return { ok: false, refusal: validation(C.tooFar) };
  return { ok: true, value: { ms: hours * HOUR_MS } };
}
