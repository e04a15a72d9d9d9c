import type { Redis } from 'ioredis';
import type { MerchantClient } from '@pixauto/api-client';
import { adminClient, type AdminPaths } from '@pixauto/api-client/admin';
import { AUDIT_ACTOR_HEADER, auditActorHeader } from '@pixauto/contracts';
import type {
  ApiKeyResponse,
  AuditLogPage,
  ApiKeySummaryResponse,
  ConsoleSignInLinkResponse,
  ConsoleUserResponse,
  Environment,
  RequestLogPage,
  WebhookSecretRotatedResponse,
} from '@pixauto/contracts';
import { Messages, notFound, refuse, unavailable, validation } from '@pixauto/errors';
import type { SecretBox } from '@pixauto/secrets';
import type { ConsoleConfig } from './console.config';

/** What the console's request log page may narrow the log by (the admin API's own filters, as sent). */
export interface RequestLogFilters {
  request_id?: string;
  failed?: string;
  method?: string;
  path?: string;
  cursor?: string;
  limit?: number;
}

/** The admin API answered what the console never expects of it: a failure of ours, answered 500 and logged. */
class GatewayUnexpected extends Error {
  override readonly name = 'GatewayUnexpected';
}

/** Who asks the admin API for a change, for the account's audit log: a console user (their email) or the console itself. */
export type ChangedBy = { email: string } | 'console';
const by = (actor: ChangedBy) => ({ [AUDIT_ACTOR_HEADER]: auditActorHeader(actor) });

const keyOf = (accountId: string, environment: Environment): string => `console:api-key:${accountId}:${environment}`;
/** The ids of every key the console issued for itself for the account: listed to users as the console's, never revocable by them. */
const ownKeyIdsOf = (accountId: string): string => `console:api-key-ids:${accountId}`;

/**
 * The console server's side of the gateway (docs/decisions/console.md): it signs users in through the admin API, and
 * calls the merchant API for them with an API key of its own per account and environment, issued through the admin API
 * on first use and kept sealed (SECRETS_KEYS) in Redis. No key ever leaves this class towards a browser.
 */
export class Gateway {
  private readonly admin: MerchantClient<AdminPaths>;
  /** The console's keys being issued on this replica, by account and environment. */
  private readonly issuing = new Map<string, Promise<string>>();

  constructor(
    private readonly config: ConsoleConfig,
    private readonly redis: Redis,
    private readonly secrets: SecretBox,
  ) {
    this.admin = adminClient(config.adminApiUrl, config.adminToken);
  }

  /** The console user with these credentials, or undefined when the email or the password is wrong. */
  async verify(email: string, password: string): Promise<ConsoleUserResponse | undefined> {
    const { data, response } = await this.admin.POST('/admin/console-users/verify', { body: { email, password } }).catch(() => this.unreachable());
    if (response.status === 404 || response.status === 400) return undefined;
    if (response.status === 503) return this.busy(response);
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to a sign-in check`);
    return data as ConsoleUserResponse;
  }

  /**
   * The sign-in link's user, whose password is now this one; undefined when the link is unknown, used or expired. A
   * password the rules refuse is refused with their reason.
   */
  async useSignInLink(token: string, password: string): Promise<ConsoleUserResponse | undefined> {
    const { data, error, response } = await this.admin.POST('/admin/console-users/sign-in-link', { body: { token, password } }).catch(() => this.unreachable());
    if (response.status === 404) return undefined;
    if (response.status === 400) return refuse(validation((error as { message: string }).message));
    if (response.status === 503) return this.busy(response);
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to using a sign-in link`);
    return data as ConsoleUserResponse;
  }

  /** Whether the sign-in link can still be used (asked before its form shows), without using it. */
  async signInLinkUsable(token: string): Promise<boolean> {
    const { response } = await this.admin.POST('/admin/console-users/sign-in-link/check', { body: { token } }).catch(() => this.unreachable());
    if (response.status === 204) return true;
    if (response.status === 404) return false;
    throw new GatewayUnexpected(`admin API answered ${response.status} to checking a sign-in link`);
  }

  /** Whether the user's password changed: false when the current one is wrong. A new password the rules refuse is refused with their reason. */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<boolean> {
    const { error, response } = await this.admin
      .POST('/admin/console-users/{user_id}/password', {
        params: { path: { user_id: userId } },
        body: { current_password: currentPassword, new_password: newPassword },
      })
      .catch(() => this.unreachable());
    if (response.status === 200) return true;
    const message = (error as { message?: string } | undefined)?.message;
    if (response.status === 400 && message === Messages.admin.consoleCurrentPasswordWrong) return false;
    if (response.status === 503) return this.busy(response);
    return this.passOn(response.status, message, 'changing a password');
  }

  /** The account's name, or undefined when the admin API cannot tell it now (the console then shows none). */
  async accountName(accountId: string): Promise<string | undefined> {
    const { data } = await this.admin.GET('/admin/accounts/{account_id}', { params: { path: { account_id: accountId } } }).catch(() => ({ data: undefined }));
    return data?.name;
  }

  /** The account's console users, the oldest first. */
  async consoleUsers(accountId: string): Promise<ConsoleUserResponse[]> {
    const { data, response } = await this.admin
      .GET('/admin/accounts/{account_id}/console-users', { params: { path: { account_id: accountId } } })
      .catch(() => this.unreachable());
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to listing console users`);
    return data.console_users as ConsoleUserResponse[];
  }

  /** The user's role now, or undefined when the account no longer has them. */
  async roleOf(accountId: string, userId: string): Promise<ConsoleUserResponse['role'] | undefined> {
    return (await this.consoleUsers(accountId)).find((user) => user.user_id === userId)?.role;
  }

  /** A new console user of the account, without a password, and their one-time sign-in link. */
  async createConsoleUser(accountId: string, email: unknown, role: unknown, actor: ChangedBy): Promise<ConsoleSignInLinkResponse> {
    const { data, error, response } = await this.admin
      .POST('/admin/accounts/{account_id}/console-users', { params: { path: { account_id: accountId } }, body: { email, role } as never, headers: by(actor) })
      .catch(() => this.unreachable());
    return (
      (data as ConsoleSignInLinkResponse | undefined) ??
      this.passOn(response.status, (error as { message?: string } | undefined)?.message, 'creating a console user')
    );
  }

  async changeConsoleRole(accountId: string, userId: string, role: unknown, actor: ChangedBy): Promise<ConsoleUserResponse> {
    const { data, error, response } = await this.admin
      .PATCH('/admin/accounts/{account_id}/console-users/{user}', {
        params: { path: { account_id: accountId, user: userId } },
        body: { role } as never,
        headers: by(actor),
      })
      .catch(() => this.unreachable());
    return (data as ConsoleUserResponse | undefined) ?? this.passOn(response.status, (error as { message?: string } | undefined)?.message, 'changing a role');
  }

  /** Removes the console user of the account; answers who it was. */
  async removeConsoleUser(accountId: string, userId: string, actor: ChangedBy): Promise<ConsoleUserResponse> {
    const { data, error, response } = await this.admin
      .DELETE('/admin/accounts/{account_id}/console-users/{user}', { params: { path: { account_id: accountId, user: userId } }, headers: by(actor) })
      .catch(() => this.unreachable());
    return (
      (data as ConsoleUserResponse | undefined) ?? this.passOn(response.status, (error as { message?: string } | undefined)?.message, 'removing a console user')
    );
  }

  /** A new one-time sign-in link for the console user of the account; their previous one stops working. */
  async newSignInLink(accountId: string, userId: string): Promise<ConsoleSignInLinkResponse> {
    const { data, error, response } = await this.admin
      .POST('/admin/accounts/{account_id}/console-users/{user}/sign-in-link', { params: { path: { account_id: accountId, user: userId } } })
      .catch(() => this.unreachable());
    return (
      (data as ConsoleSignInLinkResponse | undefined) ??
      this.passOn(response.status, (error as { message?: string } | undefined)?.message, 'making a sign-in link')
    );
  }

  /** The admin API's refusal of a user's request, passed on in its words (400, 404); anything else is ours to fix. */
  private passOn(status: number, message: string | undefined, what: string): never {
    if (status === 400 && message) return refuse(validation(message));
    if (status === 404 && message) return refuse(notFound(message));
    throw new GatewayUnexpected(`admin API answered ${status} to ${what}`);
  }

  /** The listener of an environment. */
  baseUrl(environment: Environment): string {
    return environment === 'production' ? this.config.productionApiUrl : this.config.sandboxApiUrl;
  }

  /** The console's API key for the account in that environment: the kept one, or a new one issued now. */
  async apiKey(accountId: string, environment: Environment): Promise<string> {
    const sealed = await this.redis.get(keyOf(accountId, environment));
    if (sealed) return this.secrets.open(sealed);
    // A first page asks for several things at once: one key issued for them all on this replica (another replica's
    // at the same moment is settled by the NX below).
    const slot = keyOf(accountId, environment);
    const pending = this.issuing.get(slot) ?? this.issueOwnKey(accountId, environment).finally(() => this.issuing.delete(slot));
    this.issuing.set(slot, pending);
    return pending;
  }

  private async issueOwnKey(accountId: string, environment: Environment): Promise<string> {
    const { data, response } = await this.admin
      .POST('/admin/accounts/{account_id}/api-keys', { params: { path: { account_id: accountId } }, body: { environment }, headers: by('console') })
      .catch(() => this.unreachable());
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to issuing the console's key`);
    await this.redis.sadd(ownKeyIdsOf(accountId), data.key_id);
    const kept = await this.redis.set(keyOf(accountId, environment), this.secrets.seal(data.api_key), 'NX');
    if (kept === 'OK') return data.api_key;
    // Another replica issued one at the same moment and kept it first: ours is revoked, theirs used.
    await this.revoke(data.key_id, 'console');
    const theirs = await this.redis.get(keyOf(accountId, environment));
    if (!theirs) throw new GatewayUnexpected("the console's key kept by another request was forgotten at once");
    return this.secrets.open(theirs);
  }

  /** A new webhook signing secret for one environment of the account; its previous one keeps signing beside it for 24 hours. */
  async rotateWebhookSecret(accountId: string, environment: Environment, actor: ChangedBy): Promise<WebhookSecretRotatedResponse> {
    const { data, response } = await this.admin
      .POST('/admin/accounts/{account_id}/webhook-secret', { params: { path: { account_id: accountId }, query: { environment } }, headers: by(actor) })
      .catch(() => this.unreachable());
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to rotating the webhook secret`);
    return data;
  }

  /** The kept key was refused (revoked by the operator): forgotten, so that the next call issues a new one. */
  async forgetKey(accountId: string, environment: Environment): Promise<void> {
    await this.redis.del(keyOf(accountId, environment));
  }

  /** Every key of the account (the admin API's list: never a key itself), and which of them are the console's own. */
  async listKeys(accountId: string): Promise<{ keys: ApiKeySummaryResponse[]; own: Set<string>; lastUsedSince: string }> {
    const { data, response } = await this.admin
      .GET('/admin/accounts/{account_id}/api-keys', { params: { path: { account_id: accountId } } })
      .catch(() => this.unreachable());
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to listing keys`);
    return {
      keys: data.api_keys as ApiKeySummaryResponse[],
      own: new Set(await this.redis.smembers(ownKeyIdsOf(accountId))),
      lastUsedSince: data.last_used_since,
    };
  }

  /** A key a user creates for the account's integration: the answer is the only time anyone sees it. */
  async issueKey(accountId: string, environment: Environment, readOnly: boolean, name: unknown, actor: ChangedBy): Promise<ApiKeyResponse> {
    const { data, error, response } = await this.admin
      .POST('/admin/accounts/{account_id}/api-keys', {
        params: { path: { account_id: accountId } },
        body: { environment, read_only: readOnly, ...(name !== undefined && { name }) } as never,
        headers: by(actor),
      })
      .catch(() => this.unreachable());
    return (data as ApiKeyResponse | undefined) ?? this.passOn(response.status, (error as { message?: string } | undefined)?.message, 'issuing a key');
  }

  async revoke(keyId: string, actor: ChangedBy): Promise<void> {
    const { response } = await this.admin
      .DELETE('/admin/api-keys/{key_id}', { params: { path: { key_id: keyId } }, headers: by(actor) })
      .catch(() => this.unreachable());
    if (response.status !== 204) throw new GatewayUnexpected(`admin API answered ${response.status} to revoking a key`);
  }

  /**
   * The account's API requests in one environment (the admin API's request log), without the console's own: what the
   * merchant's integration sent. A query the log cannot read is refused with the log's reason.
   */
  async requestLog(accountId: string, environment: Environment, filters: RequestLogFilters): Promise<RequestLogPage> {
    const own = await this.redis.smembers(ownKeyIdsOf(accountId));
    const query = { environment, ...filters, ...(own.length > 0 && { exclude_key_ids: own.join(',') }) };
    const { data, error, response } = await this.admin
      .GET('/admin/accounts/{account_id}/requests', { params: { path: { account_id: accountId }, query } })
      .catch(() => this.unreachable());
    if (response.status === 400) return refuse(validation((error as { message: string }).message));
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to reading the request log`);
    return data as RequestLogPage;
  }

  /** The account's audit log, newest first, a page at a time (`cursor`: the previous page's next_cursor). */
  async auditLog(accountId: string, cursor: string | undefined): Promise<AuditLogPage> {
    const { data, error, response } = await this.admin
      .GET('/admin/accounts/{account_id}/audit-log', { params: { path: { account_id: accountId }, query: { ...(cursor && { cursor }), limit: 25 } } })
      .catch(() => this.unreachable());
    if (response.status === 400) return refuse(validation((error as { message: string }).message));
    if (!data) throw new GatewayUnexpected(`admin API answered ${response.status} to reading the audit log`);
    return data as AuditLogPage;
  }

  /** The gateway checks only so many passwords at once (its memory): the user tries again when it says. */
  private busy(response: Response): never {
    const seconds = Number(response.headers.get('retry-after'));
    return refuse(unavailable(Messages.admin.consolePasswordChecksBusy, Number.isInteger(seconds) && seconds > 0 ? seconds : 1));
  }

  private unreachable(): never {
    return refuse(unavailable(Messages.request.serviceUnavailable));
  }
}
