import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const C = Messages.charges;

/** platform.md §3: the charges of a recurrence, served by recurrence-service. */
@MerchantRoutes('Charges')
@Controller('v2/automatic-pix')
export class ChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "List a recurrence's charges",
    description: 'platform.md §3. By due date.',
    params: { recurrence_id: 'The recurrence id' },
    ok: [200, 'ChargeListResponse'],
    errors: [notFound(Messages.recurrences.notFound)],
  })
  @Get('recurrences/:recurrence_id/charges')
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.list, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a charge',
    params: { charge_id: 'The charge id' },
    ok: [200, 'ChargeResponse'],
    errors: [notFound(C.notFound)],
  })
  @Get('charges/:charge_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Cancel a scheduled charge',
    params: { charge_id: 'The charge id' },
    body: 'CancelChargeRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.statusInvalid), invalid(C.notCancellable('PAID')), invalid(C.activationNotCancellable), notFound(C.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
  })
  @Patch('charges/:charge_id')
  cancel(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.cancel, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Reschedule a charge',
    description: "The date must follow today and come before the next cycle's date.",
    params: { charge_id: 'The charge id' },
    body: 'ChargeDateRequest',
    example: { date: '2099-01-15' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.dateRequired), invalid(C.dateNotAfterToday), invalid(C.notReschedulable('PAID')), notFound(C.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('charges/:charge_id/reschedule')
  reschedule(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.reschedule, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Retry a failed charge on a date',
    params: { charge_id: 'The charge id' },
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

/** platform.md §4: the payer's bank debits now, or refuses now. Sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/charges/:charge_id')
export class SandboxChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "The payer's bank debits the charge now",
    params: { charge_id: 'The charge id' },
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
    params: { charge_id: 'The charge id' },
    ok: [200, 'ChargeResponse'],
    errors: [invalid(C.notPending('PAID')), notFound(C.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('fail')
  fail(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('recurrences', Patterns.charges.sandboxFail, tenantOf(request), request, reply);
  }
}
