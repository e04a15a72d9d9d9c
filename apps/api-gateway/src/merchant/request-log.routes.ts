import { Controller, Get, Query, Req } from '@nestjs/common';
import { Messages } from '@pixauto/errors';
import { RequestLogPage } from '@pixauto/contracts';
import { RequestLogReader } from '@pixauto/request-log';
import { invalid, MerchantRoutes, REQUEST_LOG_FILTERS, Route } from '../openapi/route-doc';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

const A = Messages.admin;

/** The account's own request log, as the console shows it: what `pixauto logs tail` follows. */
@MerchantRoutes('Request log')
@Controller('v2/requests')
export class RequestLogRoutes {
  constructor(private readonly requestLog: RequestLogReader) {}

  @Route({
    summary: 'Your API requests',
    description:
      "The requests your account's keys made in this environment, newest first: method, path, status, duration, request id, Idempotency-Key and the key's id, with the bodies of the failed ones (400 and above). " +
      'Secret fields are replaced and document numbers masked; lines older than the retention (7 days by default) are gone. A line appears within about a second of its answer. Every key of the account may read it, read-only ones too.',
    query: REQUEST_LOG_FILTERS,
    ok: [200, 'RequestLogPage'],
    errors: [invalid(A.requestLogLimit), invalid(A.requestLogFailed), invalid(A.requestLogCursor)],
  })
  @Get()
  page(@Req() request: AuthenticatedRequest, @Query() query: Record<string, unknown>): Promise<RequestLogPage> {
    const { accountId, environment } = tenantOf(request);
    return this.requestLog.page(accountId, environment, query);
  }
}
