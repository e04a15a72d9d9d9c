import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ENVIRONMENTS, type ApiKeyResponse, type Environment } from '@pixauto/contracts';
import { Messages, refuse, validation } from '@pixauto/errors';
import { ConsoleApiKey, markOwn, revocationRefusal } from './api-keys';
import { Gateway } from './gateway';
import { mayAct } from './roles';
import type { SignedInRequest } from './session.guard';

/**
 * The account's API keys, for its integration (docs/decisions/console.md): listed to every role, created and revoked
 * as the role may act in the key's environment, through the admin API; each with its last use, as the request log knows it. The answer to a creation is the one answer to
 * the browser that carries a key, the only time it is shown.
 */
@Controller('console/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly gateway: Gateway) {}

  @Get()
  async list(@Req() request: SignedInRequest): Promise<{ api_keys: ConsoleApiKey[]; last_used_since: string }> {
    const { keys, own, lastUsedSince } = await this.gateway.listKeys(request.session.account_id);
    return { api_keys: markOwn(keys, own), last_used_since: lastUsedSince };
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown, @Req() request: SignedInRequest): Promise<ApiKeyResponse> {
    const { environment, read_only: readOnly = false, name } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (!ENVIRONMENTS.includes(environment as Environment)) return refuse(validation(Messages.admin.environment));
    if (typeof readOnly !== 'boolean') return refuse(validation(Messages.admin.readOnlyBoolean));
    const { role, account_id: accountId } = request.session;
    if (!mayAct(role, environment as Environment)) return refuse({ kind: 'forbidden', message: Messages.console.roleRefused(role, environment as string) });
    // The name is the admin API's to check: its refusal comes back in its words (400).
    return this.gateway.issueKey(accountId, environment as Environment, readOnly, name === '' ? undefined : name, { email: request.session.email });
  }

  @Delete(':key_id')
  @HttpCode(204)
  async revoke(@Param('key_id') keyId: string, @Req() request: SignedInRequest): Promise<void> {
    const { keys, own } = await this.gateway.listKeys(request.session.account_id);
    const refusal = revocationRefusal(markOwn(keys, own), keyId, request.session.role);
    if (refusal) return refuse(refusal);
    await this.gateway.revoke(keyId, { email: request.session.email });
  }
}
