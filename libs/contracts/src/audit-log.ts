/** Who made a change the audit log records. */
export type AuditActorType = 'console_user' | 'console' | 'operator' | 'api_key';

/** What changed: the account's security-relevant changes (docs/decisions/audit-log.md). */
export type AuditAction =
  | 'api_key.created'
  | 'api_key.revoked'
  | 'webhook_secret.rotated'
  | 'customer_limit.set'
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.deleted'
  | 'webhook_endpoint.secret_revealed'
  | 'webhook_endpoint.secret_rotated'
  | 'sandbox_clock.advanced'
  | 'team_member.added'
  | 'team_member.role_changed'
  | 'team_member.removed';

/** One change to an account, as its audit log keeps it: never changed nor deleted once written. */
export interface AuditLogEntry {
  /** The entry's place in the log: later entries have greater ids. */
  id: string;
  /** When the change was made, ISO 8601 in UTC. */
  at: string;
  /** The environment the change is about; null for the account's team, which is the same in both. */
  environment: 'production' | 'sandbox' | null;
  /** `console_user`: a person in the console (`actor` is their email); `console`: the console itself, issuing or replacing its own key; `operator`: the admin API; `api_key`: the merchant's integration (`actor` is the key's `key_id`). */
  actor_type: AuditActorType;
  /** The console user's email or the key's `key_id`; null for `console` and `operator`. */
  actor: string | null;
  /** What changed. */
  action: AuditAction;
  /** What it changed: a `key_id`, a console user's email, a customer's masked CPF or CNPJ, a webhook endpoint's `endpoint_id`, `webhook_secret` or `sandbox_clock`. */
  object: string;
  /** The change's particulars: a key's `read_only`, a role (`role`, `previous_role`), a limit's `type`, `mechanism` and cap, how far a clock moved (`ms`), a webhook endpoint's `url`, `event_types` and `enabled` (the fields a change set), a rotation's `previous_secret_valid_until`. */
  detail: Record<string, unknown>;
}

/** A page of an account's audit log. */
export interface AuditLogPage {
  /** Newest first. */
  entries: AuditLogEntry[];
  /** Pass it as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/**
 * The admin API's header naming who asked for a change: a console user's email (URL-encoded), or `console` for the
 * console's own key. Only holders of the operator token reach the admin API, so it is taken as sent; absent, the
 * change is the operator's.
 */
export const AUDIT_ACTOR_HEADER = 'x-audit-actor';

/** The header's value for a console user (their email) or the console itself. */
export const auditActorHeader = (actor: { email: string } | 'console'): string => (actor === 'console' ? 'console' : encodeURIComponent(actor.email));
