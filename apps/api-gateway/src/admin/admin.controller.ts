import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsAdmin } from '@pixauto/accounts';
import {
  AccountResponse,
  ApiKeyResponse,
  CHANGE_ACCOUNT_FIELDS,
  ChangeAccountRequest,
  ISSUE_API_KEY_FIELDS,
  IssueApiKeyRequest,
  OPEN_ACCOUNT_FIELDS,
  OpenAccountRequest,
  Patterns,
  Tenant,
  validateBody,
  WebhookSecretRotatedResponse,
} from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';
import { Upstreams } from '../upstreams';

/** The operator API (platform.md §2). */
@Controller('admin')
export class AdminController {
  constructor(private readonly accounts: AccountsAdmin, private readonly upstreams: Upstreams) {}

  @Post('accounts')
  open(@Body() body: unknown): Promise<AccountResponse> {
    const request = validateBody(OpenAccountRequest, body, OPEN_ACCOUNT_FIELDS);
    return request.ok ? this.accounts.open(request.value) : refuse(request.refusal);
  }

  @Get('accounts/:account_id')
  get(@Param('account_id') accountId: string): Promise<AccountResponse> {
    return this.accounts.get(accountId);
  }

  @Patch('accounts/:account_id')
  change(@Param('account_id') accountId: string, @Body() body: unknown): Promise<AccountResponse> {
    const request = validateBody(ChangeAccountRequest, body, CHANGE_ACCOUNT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    if (Object.keys(body as object).length === 0) return refuse(validation(Messages.admin.nothingToChange));
    return this.accounts.change(accountId, request.value);
  }

  @Post('accounts/:account_id/api-keys')
  issueKey(@Param('account_id') accountId: string, @Body() body: unknown): Promise<ApiKeyResponse> {
    const request = validateBody(IssueApiKeyRequest, body, ISSUE_API_KEY_FIELDS);
    return request.ok ? this.accounts.issueKey(accountId, request.value) : refuse(request.refusal);
  }

  /** platform.md §5: a new webhook signing secret; the replaced one signs beside it for 24 hours. */
  @Post('accounts/:account_id/webhook-secret')
  @HttpCode(200)
  rotateWebhookSecret(@Param('account_id') accountId: string): Promise<WebhookSecretRotatedResponse> {
    return this.accounts.rotateWebhookSecret(accountId);
  }

  /** An account's webhook deliveries in one environment, as the merchant reads them (same filters). */
  @Get('accounts/:account_id/webhook-deliveries')
  async deliveries(@Param('account_id') accountId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.listDeliveries, await this.tenantOf(accountId, request), request, reply);
  }

  /** One attempt now, as the merchant's POST /v2/webhooks/deliveries/:id/retry. */
  @Post('accounts/:account_id/webhook-deliveries/:id/retry')
  async retryDelivery(@Param('account_id') accountId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('webhooks', Patterns.webhooks.retryDelivery, await this.tenantOf(accountId, request), request, reply);
  }

  private async tenantOf(accountId: string, request: FastifyRequest): Promise<Tenant> {
    const environment = (request.query as Record<string, unknown>).environment;
    if (environment !== 'production' && environment !== 'sandbox') return refuse(validation(Messages.admin.environmentQuery));
    await this.accounts.get(accountId);
    return { accountId, environment };
  }

  @Delete('api-keys/:key_id')
  @HttpCode(204)
  revokeKey(@Param('key_id') keyId: string): Promise<void> {
    return this.accounts.revokeKey(keyId);
  }
}
