import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const R = Messages.recurrences;

/** service-api.md 4.1 to 4.4, served by recurrence-service. */
@MerchantRoutes('Recurrences')
@Controller('v2/automatic-pix/recurrences')
export class RecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's wallet (7.3) and name (the Pix code). */
  @Route({
    summary: 'Create a recurrence',
    description: 'service-api.md 4.1. The recurrence starts CREATED; the payer authorizes it (journey 2 with a QR code, or a solicitation).',
    body: 'CreateRecurrenceRequest',
    example: { transaction_id: 'rec-example-0001', debtor: { document_number: '52998224725', name: 'Maria Souza' }, schedule: { start_date: '2099-01-10', periodicity: 'MONTHLY' }, amount: 49.9, retry_policy: 'NOT_ALLOWED' },
    ok: [201, 'RecurrenceResponse'],
    errors: [invalid(R.transactionIdTaken), invalid(R.documentInvalid), invalid(R.startDateNotAfterToday), invalid(R.noWallet), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.create, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'List recurrences',
    description: 'service-api.md 4.3. Newest first, by creation date.',
    query: [
      { name: 'start', required: true, description: 'ISO 8601 date-time with a time zone', example: '2024-01-01T00:00:00Z' },
      { name: 'end', required: true, description: 'ISO 8601 date-time with a time zone', example: '2024-01-02T00:00:00Z' },
      { name: 'page', type: 'integer', description: 'From 0; default 0' },
      { name: 'page_size', type: 'integer', description: 'Default and maximum 100; larger values become 100' },
    ],
    ok: [200, 'RecurrenceListResponse'],
    errors: [invalid(R.periodRequired), invalid(R.dateTimeInvalid('query.start'))],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.list, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a recurrence',
    description: 'service-api.md 4.2.',
    params: { recurrence_id: 'The recurrence id' },
    ok: [200, 'RecurrenceResponse'],
    errors: [notFound(R.notFound)],
  })
  @Get(':recurrence_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Update or cancel a recurrence',
    description: 'service-api.md 4.4. Only the changeable fields; `status: CANCELLED` cancels.',
    params: { recurrence_id: 'The recurrence id' },
    body: 'UpdateRecurrenceRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'RecurrenceResponse'],
    errors: [invalid(R.nothingToChange), invalid(R.unchangeable(['amount'])), invalid(R.ended('CANCELLED')), notFound(R.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
  })
  @Patch(':recurrence_id')
  update(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.update, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the sandbox payer. Registered on the sandbox listener only, so production answers 404. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/recurrences/:recurrence_id')
export class SandboxRecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer authorizes the recurrence',
    description: 'platform.md §4: the recurrence becomes APPROVED (its activation payment is paid first on journey 3).',
    params: { recurrence_id: 'The recurrence id' },
    ok: [200, 'RecurrenceResponse'],
    errors: [invalid(R.notAwaitingPayer('APPROVED')), notFound(R.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('authorize')
  authorize(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.sandboxAuthorize, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'The payer rejects the recurrence',
    description: 'platform.md §4: the recurrence becomes REJECTED.',
    params: { recurrence_id: 'The recurrence id' },
    ok: [200, 'RecurrenceResponse'],
    errors: [invalid(R.notAwaitingPayer('REJECTED')), notFound(R.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('reject')
  reject(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.sandboxReject, tenantOf(request), request, reply);
  }
}
