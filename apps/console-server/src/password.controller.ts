import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { Messages, rateLimited, refuse, validation } from '@pixauto/errors';
import { Gateway } from './gateway';
import type { SignedInRequest } from './session.guard';
import { Sessions } from './sessions';
import { checked, SignInLimiter } from './sign-in-limiter';

/**
 * The signed-in user's own password, changed with the current one. A wrong current password counts as a failed
 * sign-in (the same limits); a change ends the user's other sessions, wherever they are.
 */
@Controller('console/v1/password')
export class PasswordController {
  constructor(
    private readonly gateway: Gateway,
    private readonly sessions: Sessions,
    private readonly limiter: SignInLimiter,
  ) {}

  @Post()
  @HttpCode(204)
  async change(@Body() body: unknown, @Req() request: SignedInRequest): Promise<void> {
    const { current_password: current, new_password: next } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof current !== 'string' || current.length > 128) return refuse(validation(Messages.admin.consoleCurrentPassword));
    if (typeof next !== 'string') return refuse(validation(Messages.admin.consoleNewPassword));
    const { email, user_id: userId } = request.session;
    const attempt = await this.limiter.attempt(email, request.ip);
    if ('refusedFor' in attempt) return refuse(rateLimited(Messages.console.tooManyPasswordAttempts, attempt.refusedFor));
    if (!(await checked(this.limiter, attempt, () => this.gateway.changePassword(userId, current, next))))
      return refuse(validation(Messages.admin.consoleCurrentPasswordWrong));
    await this.limiter.succeeded(attempt);
    await this.sessions.endAllOf(userId, request.sessionId);
  }
}
