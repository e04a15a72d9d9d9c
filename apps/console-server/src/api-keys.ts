import type { ApiKeySummaryResponse, ConsoleRole } from '@pixauto/contracts';
import { Messages, notFound, type Refusal } from '@pixauto/errors';
import { mayAct } from './roles';

/** A key of the account as the console lists it: `console` marks the console's own keys, which users cannot revoke. */
export interface ConsoleApiKey extends ApiKeySummaryResponse {
  console: boolean;
}

/** The account's keys, each marked as the console's own or not. */
export const markOwn = (keys: ApiKeySummaryResponse[], own: ReadonlySet<string>): ConsoleApiKey[] =>
  keys.map((key) => ({ ...key, console: own.has(key.key_id) }));

/**
 * Why a user may not revoke this key of the account, or undefined when they may: a key of another account is answered as
 * one that does not exist; the console's own keys are not the user's to revoke; and the role decides per environment,
 * as for any change.
 */
export function revocationRefusal(keys: ConsoleApiKey[], keyId: string, role: ConsoleRole): Refusal | undefined {
  const key = keys.find((candidate) => candidate.key_id === keyId);
  if (!key) return notFound(Messages.admin.apiKeyNotFound);
  if (key.console) return { kind: 'forbidden', message: Messages.console.consoleKey };
  if (!mayAct(role, key.environment)) return { kind: 'forbidden', message: Messages.console.roleRefused(role, key.environment) };
  return undefined;
}
