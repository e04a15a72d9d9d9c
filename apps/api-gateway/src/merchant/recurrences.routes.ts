import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const R = Messages.recurrences;

/** The recurrences, served by recurrence-service. */
@MerchantRoutes('Recurrences')
@Controller('v2/automatic-pix/recurrences')
export class RecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's wallet (a message of its own when missing) and name (the Pix code). */
  @Route({
    summary: 'Create a recurrence',
    description:
      'Creates a recurrence: a mandate for the payer to authorize, charging a fixed `amount` every `periodicity` from `start_date`. ' +
      'The recurrence starts CREATED, with a Pix code (`pix_copy_paste`, and `qrcode` as an image). The payer authorizes it by scanning the QR code or pasting the code (journey 2), ' +
      'by an alert in their banking app that you send with POST /v2/automatic-pix/solicitations (journey 1), or, when you send `activation_amount`, by paying that immediate payment with the same scan (journey 3). ' +
      "Once the payer authorizes, the recurrence is APPROVED and a charge is created for each cycle, `charge_lead_days` before its due date; the payer's bank debits it on the due date. " +
      'Nothing is charged while the recurrence is CREATED. With a `webhook`, every change of the recurrence and of its charges is notified there. ' +
      '`transaction_id` is unique in your account: repeating a creation with the same one is refused, never creates a second recurrence. Your account needs a Pix Automático wallet.',
    body: 'CreateRecurrenceRequest',
    example: {
      transaction_id: 'rec-example-0001',
      debtor: { document_number: '52998224725', name: 'Maria Souza' },
      schedule: { start_date: '2099-01-10', periodicity: 'MONTHLY' },
      amount: 49.9,
      retry_policy: 'NOT_ALLOWED',
    },
    ok: [201, 'RecurrenceResponse'],
    errors: [
      invalid(R.transactionIdTaken),
      invalid(R.documentInvalid),
      invalid(R.startDateNotAfterToday),
      invalid(R.noWallet),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.create, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'List recurrences',
    description:
      'Lists the recurrences created between `start` and `end`, newest first, one page at a time (`pagination` says how many pages there are). ' +
      'List results carry `pix_copy_paste` but not `qrcode`: read one recurrence with GET for its image.',
    query: [
      {
        name: 'start',
        required: true,
        description: 'Start of the period, compared with the creation time: an ISO 8601 date-time with its time zone (e.g. 2026-12-01T00:00:00-03:00).',
        example: '2024-01-01T00:00:00Z',
      },
      { name: 'end', required: true, description: 'End of the period: an ISO 8601 date-time with its time zone.', example: '2024-01-02T00:00:00Z' },
      { name: 'page', type: 'integer', description: 'The page to return, counted from 0. Default 0.' },
      { name: 'page_size', type: 'integer', description: 'Recurrences per page: default and maximum 100; a larger value is read as 100.' },
    ],
    ok: [200, 'RecurrenceListResponse'],
    errors: [invalid(Messages.lists.periodRequired), invalid(Messages.lists.dateTimeInvalid('query.start'))],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.list, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a recurrence',
    description:
      'Returns the recurrence as it is now: the call to learn whether the payer authorized it (`status` APPROVED, and `journey` says how), refused it or let it expire. ' +
      "An unknown id and another account's recurrence both answer 404.",
    params: { recurrence_id: 'The `recurrence_id` returned at creation.' },
    ok: [200, 'RecurrenceResponse'],
    errors: [notFound(R.notFound)],
  })
  @Get(':recurrence_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Update or cancel a recurrence',
    description:
      "Changes what can change after creation: the payer's name, the first due date, the webhook, the business-day adjustment and the lead days (at least one of them); " +
      'changes of dates and lead days apply to the charges not yet created. The amount, periodicity, end date and retry policy are fixed: to change the plan, cancel and create a new recurrence (the payer authorizes again). ' +
      '`{"status": "CANCELLED"}` cancels a CREATED or APPROVED recurrence: no further charge is created and its Pix code is voided, but charges already created stay as they are (cancel each with PATCH /v2/automatic-pix/charges/{charge_id}). ' +
      'Cancelling again answers the recurrence unchanged; a REJECTED, EXPIRED or CANCELLED recurrence can no longer be changed.',
    params: { recurrence_id: 'The `recurrence_id` returned at creation.' },
    body: 'UpdateRecurrenceRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'RecurrenceResponse'],
    errors: [
      invalid(R.nothingToChange),
      invalid(R.unchangeable(['amount'])),
      invalid(R.ended('CANCELLED')),
      notFound(R.notFound),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
  })
  @Patch(':recurrence_id')
  update(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.update, tenantOf(request), request, reply);
  }
}

/** The sandbox payer. Registered on the sandbox listener only, so production answers 404. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/recurrences/:recurrence_id')
export class SandboxRecurrencesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer authorizes the recurrence',
    description:
      'Sandbox only: plays the payer scanning the QR code and accepting. A CREATED recurrence becomes APPROVED with journey JOURNEY_2; one created with `activation_amount` has its activation paid first and becomes APPROVED with journey JOURNEY_3. ' +
      "Cycle charges are then created as the account's test clock reaches each one's creation day (advance it with POST /v2/sandbox/clock/advance).",
    params: { recurrence_id: 'The `recurrence_id` of a CREATED sandbox recurrence.' },
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
    description:
      'Sandbox only: plays the payer refusing. A CREATED recurrence becomes REJECTED, for good: its Pix code is voided and no charge is ever created.',
    params: { recurrence_id: 'The `recurrence_id` of a CREATED sandbox recurrence.' },
    ok: [200, 'RecurrenceResponse'],
    errors: [invalid(R.notAwaitingPayer('REJECTED')), notFound(R.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('reject')
  reject(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.recurrences.sandboxReject, tenantOf(request), request, reply);
  }
}
