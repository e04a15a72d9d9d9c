import { Controller, Get, Query, Req } from '@nestjs/common';
import { Messages } from '@pixauto/errors';
import { RequestLogPage } from '@pixauto/contracts';
import { RequestLogReader } from '@pixauto/request-log';
import { invalid, MerchantRoutes, Route } from '../openapi/route-doc';
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
    query: [
      { name: 'request_id', description: 'Only the request with this id (its `X-Request-Id`).' },
      { name: 'failed', description: '`true`: only the requests answered 400 or above.', example: 'true' },
      { name: 'method', description: 'Only requests of this method, e.g. `POST`.' },
      { name: 'path', description: 'Only requests whose path starts with this, e.g. `/v2/payout`.' },
      { name: 'exclude_key_ids', description: 'Leaves out the requests of these keys (their `key_id`s, comma-separated).' },
      { name: 'limit', type: 'integer', description: 'Lines per page, 1 to 100; 50 by default.' },
      { name: 'cursor', description: 'The `next_cursor` of the previous page, for the next (older) one.' },
    ],
    ok: [200, 'RequestLogPage'],
    errors: [invalid(A.requestLogLimit), invalid(A.requestLogFailed), invalid(A.requestLogCursor)],
  })
  @Get()
  page(@Req() request: AuthenticatedRequest, @Query() query: Record<string, unknown>): Promise<RequestLogPage> {
    const { accountId, environment } = tenantOf(request);
    return this.requestLog.page(accountId, environment, query);
  }
}
