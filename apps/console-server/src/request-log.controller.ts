import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ENVIRONMENTS, type Environment, type RequestLogPage } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { Gateway, type RequestLogFilters } from './gateway';
import type { SignedInRequest } from './session.guard';

const TEXT_FILTERS = ['request_id', 'failed', 'method', 'path', 'cursor'] as const;

/**
 * The account's API requests of the last days in one environment (docs/decisions/request-log.md), read by every role:
 * the request log of the gateway, through the admin API, without the console's own requests.
 */
@Controller('console/v1')
export class RequestLogController {
  constructor(private readonly gateway: Gateway) {}

  @Get(':environment/requests')
  page(@Param('environment') environment: string, @Query() query: Record<string, unknown>, @Req() request: SignedInRequest): Promise<RequestLogPage> {
    if (!ENVIRONMENTS.includes(environment as Environment)) return refuse(notFound(Messages.console.environment));
    const filters: RequestLogFilters = {};
    for (const name of TEXT_FILTERS) if (typeof query[name] === 'string' && query[name] !== '') filters[name] = query[name];
    if (typeof query.limit === 'string' && query.limit !== '') filters.limit = Number(query.limit);
    return this.gateway.requestLog(request.session.account_id, environment as Environment, filters);
  }
}
