import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
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
  validateBody,
} from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';

/** The operator API (platform.md §2). */
@Controller('admin')
export class AdminController {
  constructor(private readonly accounts: AccountsAdmin) {}

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

  @Delete('api-keys/:key_id')
  @HttpCode(204)
  revokeKey(@Param('key_id') keyId: string): Promise<void> {
    return this.accounts.revokeKey(keyId);
  }
}
