import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsAdmin, actorOfHeader, AuditLogReader, ConsoleUsers } from '@pixauto/accounts';
import {
  AccountResponse,
  AUDIT_ACTOR_HEADER,
  AuditLogPage,
  ApiKeyListResponse,
  ApiKeyResponse,
  CHANGE_ACCOUNT_FIELDS,
  ChangeAccountRequest,
  CHANGE_CONSOLE_PASSWORD_FIELDS,
  CHANGE_CONSOLE_USER_FIELDS,
  CHECK_SIGN_IN_LINK_FIELDS,
  CheckSignInLinkRequest,
  ChangeConsolePasswordRequest,
  ChangeConsoleUserRequest,
  ConsoleSignInLinkResponse,
  ConsoleUserListResponse,
  ConsoleUserResponse,
  CREATE_CONSOLE_USER_FIELDS,
  CreateConsoleUserRequest,
  ISSUE_API_KEY_FIELDS,
  IssueApiKeyRequest,
  OPEN_ACCOUNT_FIELDS,
  OpenAccountRequest,
  Patterns,
  Tenant,
  validateBody,
  VERIFY_CONSOLE_USER_FIELDS,
  VerifyConsoleUserRequest,
  RequestLogPage,
  USE_SIGN_IN_LINK_FIELDS,
  UseSignInLinkRequest,
  WebhookSecretRotatedResponse,
  WrittenPosition,
} from '@pixauto/contracts';
import { collectingWrites } from '@pixauto/event-store';
import { Messages, notFound as notFoundRefusal, refuse, validation } from '@pixauto/errors';
import { RequestLogReader } from '@pixauto/request-log';
import { Upstreams } from '../upstreams';
import { AdminRoutes, DELIVERY_FILTERS, REQUEST_LOG_FILTERS, Route, invalid, notFound } from '../openapi/route-doc';

const A = Messages.admin;

/** The operator API (docs/operations.md#the-operator-command-line). */
@AdminRoutes('Admin')
@Controller('admin')
export class AdminController {
  constructor(
    private readonly accounts: AccountsAdmin,
    private readonly consoleUsers: ConsoleUsers,
    private readonly upstreams: Upstreams,
    private readonly requestLog: RequestLogReader,
    private readonly audit: AuditLogReader,
  ) {}

  @Route({
    summary: 'Open an account',
    description:
      'Opens a merchant account and answers it with its webhook signing secret (`webhook_secret`) to give the merchant. Defaults: a Pix Automático wallet, PROVIDER_A as the cash-in bank, PROVIDER_A and PROVIDER_B enabled for receipts with working sandbox credentials, 5000 requests per second per environment, whichever of its keys sends them. ' +
      'The account has no API key yet: issue one per environment with POST /admin/accounts/{account_id}/api-keys.',
    body: 'OpenAccountRequest',
    example: { name: 'Loja Exemplo' },
    ok: [201, 'AccountResponse'],
    errors: [invalid(A.nameRequired), invalid(A.cashinProvider)],
  })
  @Post('accounts')
  open(@Body() body: unknown): Promise<AccountResponse> {
    const request = validateBody(OpenAccountRequest, body, OPEN_ACCOUNT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    return this.accountWrite(() => this.accounts.open(request.value));
  }

  @Route({
    summary: 'Get an account',
    description: "Returns the account's settings and its current webhook signing secret. Banking credentials are never shown.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    ok: [200, 'AccountResponse'],
    errors: [notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id')
  get(@Param('account_id') accountId: string): Promise<AccountResponse> {
    return this.accounts.get(accountId);
  }

  @Route({
    summary: 'Change an account',
    description:
      "Changes any of the account's wallet, cash-in bank, receipt banks and rate limits (at least one); the others keep their values. Changes apply to the next request; charges and payouts already created keep their bank.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    body: 'ChangeAccountRequest',
    example: { wallet: true },
    ok: [200, 'AccountResponse'],
    errors: [invalid(A.nothingToChange), invalid(A.rateLimit), notFound(A.accountNotFound)],
  })
  @Patch('accounts/:account_id')
  change(@Param('account_id') accountId: string, @Body() body: unknown): Promise<AccountResponse> {
    const request = validateBody(ChangeAccountRequest, body, CHANGE_ACCOUNT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    if (Object.keys(body as object).length === 0) return refuse(validation(Messages.admin.nothingToChange));
    return this.accountWrite(() => this.accounts.change(accountId, request.value));
  }

  @Route({
    summary: 'Issue an API key',
    description:
      'Issues an API key for one environment: `pix_live_...` for production, `pix_test_...` for sandbox. The key is in this answer only (just a hash of it is kept): hand it to the merchant, who sends it as the Authorization header. ' +
      "A key works on its own environment's port only; `read_only` and `transactions` narrow what it may do.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    body: 'IssueApiKeyRequest',
    example: { environment: 'sandbox' },
    ok: [201, 'ApiKeyResponse'],
    errors: [invalid(A.environment), notFound(A.accountNotFound)],
  })
  @Post('accounts/:account_id/api-keys')
  issueKey(@Param('account_id') accountId: string, @Body() body: unknown, @Headers(AUDIT_ACTOR_HEADER) actor: unknown): Promise<ApiKeyResponse> {
    const request = validateBody(IssueApiKeyRequest, body, ISSUE_API_KEY_FIELDS);
    return request.ok ? this.accounts.issueKey(accountId, request.value, actorOfHeader(actor)) : refuse(request.refusal);
  }

  @Route({
    summary: "An account's API keys",
    description:
      "Lists every API key of the account, the newest first, revoked ones included: each key's environment, what it may do, when it was issued and revoked, and when a request with it last reached the API (from the request log, so within its retention: `last_used_since`). The keys themselves are not kept, so never shown.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    ok: [200, 'ApiKeyListResponse'],
    errors: [notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id/api-keys')
  async listKeys(@Param('account_id') accountId: string): Promise<ApiKeyListResponse> {
    const keys = await this.accounts.listKeys(accountId);
    const { since, lastUsed } = await this.requestLog.lastUse(
      accountId,
      keys.map((key) => key.key_id),
    );
    return {
      api_keys: keys.map((key) => ({ ...key, last_used_at: lastUsed.get(key.key_id)?.toISOString() ?? null })),
      last_used_since: since.toISOString(),
    };
  }

  /** A new webhook signing secret for one environment; its replaced one signs beside it for 24 hours (docs/decisions/webhooks.md). */
  @Route({
    summary: "Rotate the account's webhook secret of one environment",
    description:
      'Issues a new webhook signing secret for one environment: production and sandbox webhooks are signed with secrets of their own, so a sandbox webhook never verifies with the production secret. ' +
      "For the next 24 hours every webhook of that environment carries two signatures, one with the new secret and one with the previous, so the merchant can switch without losing a notification; then only the new one. The other environment's secret is unchanged.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    query: [
      {
        name: 'environment',
        required: true,
        enum: ['production', 'sandbox'],
        description: "Whose secret: the one that signs the account's `production` webhooks or its `sandbox` ones.",
        example: 'production',
      },
    ],
    ok: [200, 'WebhookSecretRotatedResponse'],
    errors: [invalid(A.environmentQuery), notFound(A.accountNotFound)],
  })
  @Post('accounts/:account_id/webhook-secret')
  @HttpCode(200)
  rotateWebhookSecret(
    @Param('account_id') accountId: string,
    @Query('environment') environment: unknown,
    @Headers(AUDIT_ACTOR_HEADER) actor: unknown,
  ): Promise<WebhookSecretRotatedResponse> {
    if (environment !== 'production' && environment !== 'sandbox') return refuse(validation(A.environmentQuery));
    return this.accountWrite(() => this.accounts.rotateWebhookSecret(accountId, environment, actorOfHeader(actor)));
  }

  /** The account's events this write appended, remembered for its merchant's reads (docs/decisions/read-your-writes.md). */
  private async accountWrite<T extends { account_id: string }>(write: () => Promise<T>): Promise<T> {
    const written: WrittenPosition[] = [];
    const answer = await collectingWrites(written, write);
    await this.upstreams.rememberAccountWrite(answer.account_id, written);
    return answer;
  }

  /** An account's webhook deliveries in one environment, as the merchant reads them (same filters). */
  @Route({
    summary: "An account's webhook deliveries in one environment",
    description:
      "Lists the account's webhook deliveries in one environment, newest first, with the filters and pages the merchant has: what the merchant sees with GET /v2/webhooks/deliveries.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    query: [
      {
        name: 'environment',
        required: true,
        enum: ['production', 'sandbox'],
        description: "Whose deliveries: the account's `production` or `sandbox` ones.",
        example: 'sandbox',
      },
      ...DELIVERY_FILTERS,
    ],
    ok: [200, 'DeliveryListResponse'],
    errors: [invalid(A.environmentQuery), notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id/webhook-deliveries')
  async deliveries(@Param('account_id') accountId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.listDeliveries, await this.tenantOf(accountId, request), request, reply);
  }

  /** One attempt now, as the merchant's POST /v2/webhooks/deliveries/:id/retry. */
  @Route({
    summary: 'Retry a webhook delivery now',
    description:
      "Makes one more attempt of an account's delivery within a second, outside its schedule and without using up one of its attempts, as the merchant's POST /v2/webhooks/deliveries/{id}/retry does; answered 202 at once.",
    params: { account_id: 'The `account_id` returned when the account was opened.', id: "The delivery's `id` (`msg_...`)." },
    query: [
      {
        name: 'environment',
        required: true,
        enum: ['production', 'sandbox'],
        description: 'The environment of the delivery: `production` or `sandbox`.',
        example: 'sandbox',
      },
    ],
    ok: [202, 'DeliveryResponse'],
    errors: [invalid(A.environmentQuery), notFound(A.accountNotFound), notFound(Messages.webhooks.deliveryNotFound)],
  })
  @Post('accounts/:account_id/webhook-deliveries/:id/retry')
  async retryDelivery(@Param('account_id') accountId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, await this.tenantOf(accountId, request), request, reply);
  }

  @Route({
    summary: "An account's API requests",
    description:
      "The account's API requests in one environment, newest first, as the console's request log shows them: method, path, status, duration, request id, Idempotency-Key and the key's id, with the bodies of the failed ones (400 and above). " +
      'Secret fields are replaced and document numbers masked; nothing older than the retention the operator sets (REQUEST_LOG_RETENTION_DAYS, 7 days by default) is kept. A line appears within about a second of its answer.',
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    query: [
      {
        name: 'environment',
        required: true,
        enum: ['production', 'sandbox'],
        description: "Whose requests: those made with the account's `production` or `sandbox` keys.",
        example: 'sandbox',
      },
      ...REQUEST_LOG_FILTERS,
    ],
    ok: [200, 'RequestLogPage'],
    errors: [invalid(A.environmentQuery), invalid(A.requestLogLimit), invalid(A.requestLogFailed), invalid(A.requestLogCursor), notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id/requests')
  async requests(@Param('account_id') accountId: string, @Query() query: Record<string, unknown>): Promise<RequestLogPage> {
    const { environment } = query;
    if (environment !== 'production' && environment !== 'sandbox') return refuse(validation(A.environmentQuery));
    await this.accounts.get(accountId);
    return this.requestLog.page(accountId, environment, query);
  }

  @Route({
    summary: "An account's audit log",
    description:
      'Who changed what of the account, and when, newest first: API keys issued and revoked, webhook signing secrets rotated, customer limits set, the sandbox clock advanced, console users added, given another role and removed. ' +
      'Each entry names who made the change: a console user (by email), the console itself (its own key), the operator (this API), or an API key (the integration). ' +
      "Entries are written with their change and never changed or deleted. A change made through this API is the operator's unless the `X-Audit-Actor` header names a console user (their email) or `console`, as the console server does.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    query: [
      { name: 'limit', type: 'integer', description: 'Entries per page, 1 to 100; 50 by default.' },
      { name: 'cursor', description: 'The `next_cursor` of the previous page, for the next (older) one.' },
    ],
    ok: [200, 'AuditLogPage'],
    errors: [invalid(A.requestLogLimit), invalid(A.requestLogCursor), notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id/audit-log')
  async auditLog(@Param('account_id') accountId: string, @Query() query: Record<string, unknown>): Promise<AuditLogPage> {
    await this.accounts.get(accountId);
    return this.audit.page(accountId, query);
  }

  private async tenantOf(accountId: string, request: FastifyRequest): Promise<Tenant> {
    const environment = (request.query as Record<string, unknown>).environment;
    if (environment !== 'production' && environment !== 'sandbox') return refuse(validation(Messages.admin.environmentQuery));
    await this.accounts.get(accountId);
    return { accountId, environment };
  }

  @Route({
    summary: 'Create a console user',
    description:
      'Creates a person who signs in to the merchant console for the account, with a role: `owner` does everything, production included; `developer` acts in the sandbox and reads production; `viewer` only reads. ' +
      'The user has no password yet: give them `sign_in_url`, a link that works once within 24 hours, with which they choose their password and are signed in. The link is in this answer only (just a hash of it is kept).',
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    body: 'CreateConsoleUserRequest',
    example: { email: 'ana@loja.example', role: 'developer' },
    ok: [201, 'ConsoleSignInLinkResponse'],
    errors: [invalid(A.consoleEmail), invalid(A.consoleRole), invalid(A.consoleEmailTaken), notFound(A.accountNotFound)],
  })
  @Post('accounts/:account_id/console-users')
  async createConsoleUser(
    @Param('account_id') accountId: string,
    @Body() body: unknown,
    @Headers(AUDIT_ACTOR_HEADER) actor: unknown,
  ): Promise<ConsoleSignInLinkResponse> {
    const request = validateBody(CreateConsoleUserRequest, body, CREATE_CONSOLE_USER_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    await this.accounts.get(accountId);
    return this.consoleUsers.create(accountId, request.value, actorOfHeader(actor));
  }

  @Route({
    summary: "An account's console users",
    description: "Lists the account's console users, the oldest first: each one's address, role, and when they were created and last signed in.",
    params: { account_id: 'The `account_id` returned when the account was opened.' },
    ok: [200, 'ConsoleUserListResponse'],
    errors: [notFound(A.accountNotFound)],
  })
  @Get('accounts/:account_id/console-users')
  async listConsoleUsers(@Param('account_id') accountId: string): Promise<ConsoleUserListResponse> {
    await this.accounts.get(accountId);
    return { console_users: await this.consoleUsers.list(accountId) };
  }

  @Route({
    summary: "Change a console user's role",
    description: 'Gives the user another role, from their next request in the console on. Refused when it would leave the account without an owner.',
    params: { account_id: 'The `account_id` returned when the account was opened.', user: "The user's `user_id`, or their email address." },
    body: 'ChangeConsoleUserRequest',
    example: { role: 'viewer' },
    ok: [200, 'ConsoleUserResponse'],
    errors: [invalid(A.consoleRole), invalid(A.consoleLastOwner), notFound(A.consoleUserNotFound)],
  })
  @Patch('accounts/:account_id/console-users/:user')
  changeConsoleUser(
    @Param('account_id') accountId: string,
    @Param('user') user: string,
    @Body() body: unknown,
    @Headers(AUDIT_ACTOR_HEADER) actor: unknown,
  ): Promise<ConsoleUserResponse> {
    const request = validateBody(ChangeConsoleUserRequest, body, CHANGE_CONSOLE_USER_FIELDS);
    return request.ok ? this.consoleUsers.changeRole(accountId, user, request.value.role, actorOfHeader(actor)) : refuse(request.refusal);
  }

  @Route({
    summary: 'Remove a console user',
    description:
      "Removes the user: they can no longer sign in, and their open console sessions end within a minute (at once when an owner removes them in the console). Refused for the account's last owner.",
    params: { account_id: 'The `account_id` returned when the account was opened.', user: "The user's `user_id`, or their email address." },
    ok: [200, 'ConsoleUserResponse'],
    errors: [invalid(A.consoleLastOwner), notFound(A.consoleUserNotFound)],
  })
  @Delete('accounts/:account_id/console-users/:user')
  removeConsoleUser(
    @Param('account_id') accountId: string,
    @Param('user') user: string,
    @Headers(AUDIT_ACTOR_HEADER) actor: unknown,
  ): Promise<ConsoleUserResponse> {
    return this.consoleUsers.remove(accountId, user, actorOfHeader(actor));
  }

  @Route({
    summary: 'A new sign-in link for a console user',
    description:
      'Makes a new one-time sign-in link for the user, working within 24 hours; their previous link stops working. With it the user chooses a new password (their current one, if any, is replaced) and is signed in. The link is in this answer only.',
    params: { account_id: 'The `account_id` returned when the account was opened.', user: "The user's `user_id`, or their email address." },
    ok: [201, 'ConsoleSignInLinkResponse'],
    errors: [notFound(A.consoleUserNotFound)],
  })
  @Post('accounts/:account_id/console-users/:user/sign-in-link')
  newSignInLink(@Param('account_id') accountId: string, @Param('user') user: string): Promise<ConsoleSignInLinkResponse> {
    return this.consoleUsers.newSignInLink(accountId, user);
  }

  @Route({
    summary: "Check a console user's sign-in",
    description:
      'Answers the console user whose email and password these are, as the console server asks at sign-in; 404, the same for an unknown email as for a wrong password (or a user who has not chosen a password yet), otherwise.',
    body: 'VerifyConsoleUserRequest',
    example: { email: 'ana@loja.example', password: 'a long passphrase' },
    ok: [200, 'ConsoleUserResponse'],
    errors: [invalid(A.consoleEmail), invalid(A.consolePassword), notFound(A.consoleSignInRefused)],
  })
  @Post('console-users/verify')
  @HttpCode(200)
  verifyConsoleUser(@Body() body: unknown): Promise<ConsoleUserResponse> {
    const request = validateBody(VerifyConsoleUserRequest, body, VERIFY_CONSOLE_USER_FIELDS);
    return request.ok ? this.consoleUsers.verify(request.value.email, request.value.password) : refuse(request.refusal);
  }

  @Route({
    summary: 'Use a sign-in link',
    description:
      "Sets the password of the sign-in link's user and uses the link up, as the console server asks when the user opens the link: the link works once. An unknown, used or expired link is answered 404.",
    body: 'UseSignInLinkRequest',
    example: { token: 'example-0000', password: 'a long passphrase' },
    ok: [200, 'ConsoleUserResponse'],
    errors: [invalid(A.consoleSignInToken), invalid(A.consolePassword), notFound(A.consoleSignInLinkInvalid)],
  })
  @Post('console-users/sign-in-link')
  @HttpCode(200)
  useSignInLink(@Body() body: unknown): Promise<ConsoleUserResponse> {
    const request = validateBody(UseSignInLinkRequest, body, USE_SIGN_IN_LINK_FIELDS);
    return request.ok ? this.consoleUsers.useSignInLink(request.value.token, request.value.password) : refuse(request.refusal);
  }

  @Route({
    summary: 'Check a sign-in link',
    description:
      'Answers 204 when the sign-in link can still be used, without using it, as the console server asks before it shows the form to choose a password; an unknown, used or expired link is answered 404.',
    body: 'CheckSignInLinkRequest',
    example: { token: 'example-0000' },
    ok: [204],
    errors: [invalid(A.consoleSignInToken), notFound(A.consoleSignInLinkInvalid)],
  })
  @Post('console-users/sign-in-link/check')
  @HttpCode(204)
  async checkSignInLink(@Body() body: unknown): Promise<void> {
    const request = validateBody(CheckSignInLinkRequest, body, CHECK_SIGN_IN_LINK_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    if (!(await this.consoleUsers.signInLinkUsable(request.value.token))) return refuse(notFoundRefusal(A.consoleSignInLinkInvalid));
  }

  @Route({
    summary: "Change a console user's password",
    description:
      "Replaces the user's password when the current one is given, as the console server asks for a signed-in user; a pending sign-in link stops working.",
    params: { user_id: "The user's `user_id`." },
    body: 'ChangeConsolePasswordRequest',
    example: { current_password: 'a long passphrase', new_password: 'another long passphrase' },
    ok: [200, 'ConsoleUserResponse'],
    errors: [invalid(A.consoleCurrentPassword), invalid(A.consoleNewPassword), invalid(A.consoleCurrentPasswordWrong), notFound(A.consoleUserNotFound)],
  })
  @Post('console-users/:user_id/password')
  @HttpCode(200)
  changeConsolePassword(@Param('user_id') userId: string, @Body() body: unknown): Promise<ConsoleUserResponse> {
    const request = validateBody(ChangeConsolePasswordRequest, body, CHANGE_CONSOLE_PASSWORD_FIELDS);
    return request.ok ? this.consoleUsers.changePassword(userId, request.value.current_password, request.value.new_password) : refuse(request.refusal);
  }

  @Route({
    summary: 'Revoke an API key',
    description: 'Revokes an API key at once: every request with it answers 401 from then on. Revoking cannot be undone; issue a new key instead.',
    params: { key_id: 'The `key_id` returned when the key was issued.' },
    ok: [204],
    errors: [notFound(A.apiKeyNotFound)],
  })
  @Delete('api-keys/:key_id')
  @HttpCode(204)
  revokeKey(@Param('key_id') keyId: string, @Headers(AUDIT_ACTOR_HEADER) actor: unknown): Promise<void> {
    return this.accounts.revokeKey(keyId, actorOfHeader(actor));
  }
}
