import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { ConsoleRole, ConsoleSignInLinkResponse, ConsoleUserListResponse, ConsoleUserResponse } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Gateway } from './gateway';
import type { SignedInRequest } from './session.guard';
import { Sessions } from './sessions';

const fieldsOf = (body: unknown): Record<string, unknown> => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});

/**
 * The account's console users, managed by its owners through the admin API: listed, created with a one-time sign-in
 * link, given another role, removed. A removed user's sessions end at once; a user whose role changes acts with the new
 * one from their next request. The admin API keeps the account's last owner.
 */
@Controller('console/v1/users')
export class TeamController {
  constructor(
    private readonly gateway: Gateway,
    private readonly sessions: Sessions,
  ) {}

  @Get()
  async list(@Req() request: SignedInRequest): Promise<ConsoleUserListResponse> {
    return { console_users: await this.gateway.consoleUsers(ownersAccount(request)) };
  }

  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown, @Req() request: SignedInRequest): Promise<ConsoleSignInLinkResponse> {
    const { email, role } = fieldsOf(body);
    return this.gateway.createConsoleUser(ownersAccount(request), email, role, { email: request.session.email });
  }

  @Patch(':user_id')
  async changeRole(@Param('user_id') userId: string, @Body() body: unknown, @Req() request: SignedInRequest): Promise<ConsoleUserResponse> {
    const changed = await this.gateway.changeConsoleRole(ownersAccount(request), userId, fieldsOf(body).role, { email: request.session.email });
    await this.sessions.changeRole(changed.user_id, changed.role as ConsoleRole);
    return changed;
  }

  @Delete(':user_id')
  @HttpCode(204)
  async remove(@Param('user_id') userId: string, @Req() request: SignedInRequest): Promise<void> {
    const removed = await this.gateway.removeConsoleUser(ownersAccount(request), userId, { email: request.session.email });
    await this.sessions.endAllOf(removed.user_id);
  }

  @Post(':user_id/sign-in-link')
  @HttpCode(201)
  async newSignInLink(@Param('user_id') userId: string, @Req() request: SignedInRequest): Promise<ConsoleSignInLinkResponse> {
    return this.gateway.newSignInLink(ownersAccount(request), userId);
  }
}

/** The signed-in user's account, when they are one of its owners: managing the account's users is an owner's alone. */
function ownersAccount(request: SignedInRequest): string {
  if (request.session.role !== 'owner') return refuse({ kind: 'forbidden', message: Messages.console.teamOwnerOnly });
  return request.session.account_id;
}
