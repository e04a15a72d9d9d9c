import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const C = Messages.charges;

/** The charges of a recurrence, served by recurrence-service. */
@MerchantRoutes('Charges')
@Controller('v2/automatic-pix')
export class ChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "List a recurrence's charges",
    description:
      'Lists every charge of the recurrence created so far, by due date (on journey 3 the activation payment comes first). ' +
      'An APPROVED recurrence gets one charge per cycle, created `charge_lead_days` before its due date; a CREATED one has none yet.',
    params: { recurrence_id: 'The `recurrence_id` returned at creation.' },
    ok: [200, 'ChargeListResponse'],
    errors: [notFound(Messages.recurrences.notFound)],
  })
  @Get('recurrences/:recurrence_id/charges')
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.list, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'List charges by due date',
    description:
      'Lists the charges of all your recurrences due from `due_from` to `due_to` (both included, Brasília days), by due date, one page at a time (`pagination` says how many pages and charges there are), optionally only those of one `status`. ' +
      'A charge is created `charge_lead_days` before its due date: later due dates have none yet. A charge PAID on a retry keeps its due date; `paid_at` says when it was paid.',
    query: [
      { name: 'due_from', required: true, description: 'The first due date, YYYY-MM-DD.', example: '2026-11-01' },
      { name: 'due_to', required: true, description: 'The last due date, YYYY-MM-DD, not before `due_from`.', example: '2026-11-30' },
      { name: 'status', description: 'Only the charges of this status: SCHEDULED, PAID, FAILED, CANCELLED or EXPIRED.' },
      { name: 'page', type: 'integer', description: 'The page to return, counted from 0. Default 0.' },
      { name: 'page_size', type: 'integer', description: 'Charges per page: default and maximum 100; a larger value is read as 100.' },
    ],
    ok: [200, 'ChargePageResponse'],
    errors: [invalid(C.duePeriodRequired), invalid(C.dueDateFormat('query.due_from')), invalid(C.duePeriodReversed), invalid(C.listStatusInvalid)],
  })
  @Get('charges')
  listDue(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.listDue, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a charge',
    description: "Returns the charge as it is now: SCHEDULED until the payer's bank debits it on its due date (PAID) or refuses (FAILED), or CANCELLED.",
    params: { charge_id: 'The `charge_id` of a charge of one of your recurrences.' },
    ok: [200, 'ChargeResponse'],
    errors: [notFound(C.notFound)],
  })
  @Get('charges/:charge_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Cancel a scheduled charge',
    description:
      'Cancels a SCHEDULED or FAILED charge: the payer is not debited for it, and it becomes CANCELLED. Cancelling again answers the charge unchanged. ' +
      'A PAID or EXPIRED charge cannot be cancelled, nor a journey 3 activation; from the date of its first debit attempt the settlement system refuses (ProviderError). ' +
      'Cancelling a charge does not cancel its recurrence.',
    params: { charge_id: 'The `charge_id` of the charge to cancel.' },
    body: 'CancelChargeRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'ChargeResponse'],
    errors: [
      invalid(C.statusInvalid),
      invalid(C.notCancellable('PAID')),
      invalid(C.activationNotCancellable),
      notFound(C.notFound),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
  })
  @Patch('charges/:charge_id')
  cancel(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.cancel, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Reschedule a charge',
    description:
      "Moves the debit of a SCHEDULED charge that was never retried to another date: after today (Brasília time) and before the next cycle's due date, moved on to a business day when the recurrence has `business_day_adjust`. " +
      'The charge stays SCHEDULED with the new `due_date`.',
    params: { charge_id: 'The `charge_id` of the charge to reschedule.' },
    body: 'ChargeDateRequest',
    example: { date: '2099-01-15' },
    ok: [200, 'ChargeResponse'],
    errors: [
      invalid(C.dateRequired),
      invalid(C.dateNotAfterToday),
      invalid(C.notReschedulable('PAID')),
      notFound(C.notFound),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post('charges/:charge_id/reschedule')
  reschedule(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.reschedule, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Retry a failed charge on a date',
    description:
      'Schedules a new debit attempt for a FAILED charge: it becomes SCHEDULED again and `retries` grows by one; its `due_date` stays. ' +
      'The settlement system decides, and refuses with a ProviderError whose `violations` name the rule: the recurrence must have `retry_policy` ALLOWS_3R_7D, the date must be 1 to 7 days after the due date (never the due date itself), and a charge is retried at most 3 times. ' +
      'A journey 3 activation cannot be retried.',
    params: { charge_id: 'The `charge_id` of a FAILED charge.' },
    body: 'ChargeDateRequest',
    example: { date: '2099-01-15' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.dateFormat), invalid(C.activationNotRetryable), notFound(C.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('charges/:charge_id/retry')
  retry(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.retry, tenantOf(request), request, reply);
  }
}

/** Sandbox: the payer's bank debits now, or refuses now. Sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/charges/:charge_id')
export class SandboxChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "The payer's bank debits the charge now",
    description:
      "Sandbox only: the payer's bank debits a SCHEDULED charge now, whatever its due date: it becomes PAID. Without this call, a SCHEDULED charge is paid by itself when the account's test clock reaches its due date. " +
      'A journey 3 activation is paid by authorizing its recurrence instead.',
    params: { charge_id: 'The `charge_id` of a SCHEDULED sandbox charge.' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.notPending('PAID')), invalid(C.activationBySandboxPayer), notFound(C.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('pay')
  pay(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.sandboxPay, tenantOf(request), request, reply);
  }

  @Route({
    summary: "The payer's bank refuses the debit now",
    description:
      "Sandbox only: the payer's bank refuses the pending debit of a SCHEDULED charge now: it becomes FAILED, and may be retried (POST /v2/automatic-pix/charges/{charge_id}/retry) when the recurrence allows it.",
    params: { charge_id: 'The `charge_id` of a SCHEDULED sandbox charge.' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.notPending('PAID')), notFound(C.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('fail')
  fail(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.sandboxFail, tenantOf(request), request, reply);
  }
}
