import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleUserResponse } from '@pixauto/contracts';
import { Messages, notFound, rateLimited, refuse, validation } from '@pixauto/errors';
import { CONSOLE_CONFIG } from './tokens';
import type { ConsoleConfig } from './console.config';
import { Gateway } from './gateway';
import { cookieOf, SignedInRequest, WithoutSession } from './session.guard';
import { ConsoleSession, SESSION_COOKIE, Sessions } from './sessions';
import { checked, SignInLimiter } from './sign-in-limiter';

/** What the browser learns of its session: who is signed in, and the token its changes carry. */
export interface SessionResponse {
  email: string;
  role: ConsoleSession['role'];
  account_id: string;
  /** The account's name ('' when the platform could not tell it at sign-in). */
  account_name: string;
  csrf_token: string;
}

const answer = ({ email, role, account_id, account_name, csrf_token }: ConsoleSession): SessionResponse => ({
  email,
  role,
  account_id,
  account_name: account_name ?? '',
  csrf_token,
});

const MAX_EMAIL = 254;
const MAX_PASSWORD = 128;
const MAX_TOKEN = 128;

/** Sign-in (with a password, or a one-time sign-in link), the current session, sign-out. */
@Controller('console/v1/session')
export class SessionController {
  constructor(
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
    private readonly sessions: Sessions,
    private readonly limiter: SignInLimiter,
    private readonly gateway: Gateway,
  ) {}

  @Post()
  @WithoutSession()
  @HttpCode(201)
  async signIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    const { email, password } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof email !== 'string' || email.length === 0 || email.length > MAX_EMAIL) return refuse(validation(Messages.console.email));
    if (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD) return refuse(validation(Messages.console.password));
    // Counted before the password is checked: concurrent guesses cannot all slip under the bounds.
    const attempt = await this.limiter.attempt(email, request.ip);
    if ('refusedFor' in attempt) return refuse(rateLimited(Messages.console.tooManySignIns, attempt.refusedFor));
    const user = await checked(this.limiter, attempt, () => this.gateway.verify(email, password));
    if (!user) return refuse({ kind: 'authentication', status: 401, code: 1, message: Messages.console.signInRefused });
    await this.limiter.succeeded(attempt);
    return this.start(user, request, reply);
  }

  /**
   * Sign-in with a one-time sign-in link: the user chooses their password, and is signed in. The link works once; an
   * unknown one counts as a failed sign-in of the client address. Choosing a password ends the user's other sessions.
   */
  @Post('link')
  @WithoutSession()
  @HttpCode(201)
  async signInWithLink(@Body() body: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    const { token, password } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN) return refuse(validation(Messages.admin.consoleSignInToken));
    if (typeof password !== 'string') return refuse(validation(Messages.admin.consolePassword));
    const attempt = await this.limiter.attempt(undefined, request.ip);
    if ('refusedFor' in attempt) return refuse(rateLimited(Messages.console.tooManySignIns, attempt.refusedFor));
    const user = await checked(this.limiter, attempt, () => this.gateway.useSignInLink(token, password));
    if (!user) return refuse(notFound(Messages.admin.consoleSignInLinkInvalid));
    await this.limiter.succeeded(attempt);
    await this.sessions.endAllOf(user.user_id);
    return this.start(user, request, reply);
  }

  /**
   * Whether a sign-in link can still be used, asked as its page opens: a used or expired link says so before anyone
   * types a password. The link is not used; an unknown one counts as a failed sign-in of the client address.
   */
  @Post('link/check')
  @WithoutSession()
  @HttpCode(204)
  async checkLink(@Body() body: unknown, @Req() request: FastifyRequest): Promise<void> {
    const { token } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN) return refuse(validation(Messages.admin.consoleSignInToken));
    const attempt = await this.limiter.attempt(undefined, request.ip);
    if ('refusedFor' in attempt) return refuse(rateLimited(Messages.console.tooManySignIns, attempt.refusedFor));
    if (!(await checked(this.limiter, attempt, () => this.gateway.signInLinkUsable(token)))) return refuse(notFound(Messages.admin.consoleSignInLinkInvalid));
    await this.limiter.succeeded(attempt);
  }

  @Get()
  current(@Req() request: SignedInRequest): SessionResponse {
    return answer(request.session);
  }

  @Delete()
  @HttpCode(204)
  async signOut(@Req() request: SignedInRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.end(request.sessionId);
    void reply.header('set-cookie', this.cookie('', 0));
  }

  /** A new session id at every sign-in: an id planted before it is worth nothing after. */
  private async start(user: ConsoleUserResponse, request: FastifyRequest, reply: FastifyReply): Promise<SessionResponse> {
    await this.sessions.end(cookieOf(request, SESSION_COOKIE));
    const { sessionId, session } = await this.sessions.start({
      user_id: user.user_id,
      account_id: user.account_id,
      account_name: await this.gateway.accountName(user.account_id),
      email: user.email,
      role: user.role,
    });
    void reply.header('set-cookie', this.cookie(sessionId, this.config.sessionMaxSeconds));
    return answer(session);
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(this.config.secure ? ['Secure'] : [])].join(
      '; ',
    );
  }
}
