import { All, Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ENVIRONMENTS, type Environment } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { CONSOLE_USER_HEADER, consoleUserHeader } from '@pixauto/request-log';
import { REQUEST_ID_HEADER } from '@pixauto/telemetry';
import type { ConsoleConfig } from './console.config';
import { Gateway } from './gateway';
import { CONSOLE_CONFIG } from './tokens';
import { isOwnerOnlyRoute, merchantApiUrl } from './merchant-routes';
import { isRead, mayAct } from './roles';
import type { SignedInRequest } from './session.guard';

/** The merchant API's answer headers the browser gets; every other header stays here. */
const PASSED_HEADERS = ['content-type', 'content-disposition', 'retry-after', 'location'];
/** The request headers passed on to the merchant API, besides the console's key. */
const FORWARDED_HEADERS = ['content-type', 'idempotency-key', 'accept'];

/**
 * /console/v1/{environment}/api/...: the merchant API, for the signed-in user's account, with the console's own key
 * (docs/decisions/console.md). The browser uses the same typed client as merchants do, on this base URL; the role
 * decides here, before the gateway is asked, whether the request may change anything.
 */
@Controller('console/v1')
export class MerchantApiController {
  constructor(
    private readonly gateway: Gateway,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
  ) {}

  @All(':environment/api/*')
  async relay(@Param('environment') environment: string, @Param('*') path: string, @Req() request: SignedInRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!ENVIRONMENTS.includes(environment as Environment)) return refuse(notFound(Messages.console.environment));
    const env = environment as Environment;
    const { role, account_id: accountId } = request.session;
    if (!isRead(request.method) && !mayAct(role, env)) return refuse({ kind: 'forbidden', message: Messages.console.roleRefused(role, env) });
    // Built from the route's own parameter, never by cutting the raw request line: an absolute-form request
    // (`GET http://elsewhere/... HTTP/1.1`) carries a host of its own, which must never reach the key's destination.
    const url = merchantApiUrl(this.gateway.baseUrl(env), request.method, path ?? '', request.url);
    if (!url) return refuse(notFound(Messages.console.routeNotPassed));
    const ownerOnly = isOwnerOnlyRoute(url.pathname);
    if (ownerOnly && role !== 'owner') return refuse({ kind: 'forbidden', message: Messages.console.endpointSecretOwnerOnly });
    const send = async () => {
      const headers: Record<string, string> = { authorization: await this.gateway.apiKey(accountId, env), [REQUEST_ID_HEADER]: request.id };
      for (const name of FORWARDED_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      // A change names its user, signed for this request: the request log keeps who did it.
      if (!isRead(request.method) || ownerOnly) headers[CONSOLE_USER_HEADER] = consoleUserHeader(this.config.adminToken, request.id, request.session.email);
      const body = isRead(request.method) || request.body === undefined ? undefined : JSON.stringify(request.body);
      return fetch(url, { method: request.method, headers, body, redirect: 'manual' });
    };
    let response = await send();
    if (response.status === 401) {
      // The kept key was revoked: a new one, once.
      await this.gateway.forgetKey(accountId, env);
      response = await send();
    }
    for (const name of PASSED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) void reply.header(name, value);
    }
    void reply.status(response.status).send(Buffer.from(await response.arrayBuffer()));
  }
}
