import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Messages } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { BANK_REFUSALS, EXAMPLE_NUMBER, invalid, limitExceeded, MerchantRoutes, notFound, periodPageQuery, Route, WRITE_REFUSALS } from '../openapi/route-doc';

const T = Messages.transactions;
const P = Messages.payments;
const D = Messages.dueDateCharges;
const L = Messages.lists;

const EXAMPLE_CHARGE = {
  transaction_id: 'boleto-example-0001',
  amount: 150,
  due_date: '2099-12-10',
  days_valid_after_due: 30,
  payer: { document_number: '12ABC34501DE35', name: 'Loja Alfa Ltda' },
  fine: { modality: 'PERCENTAGE', value: 2 },
  interest: { modality: 'PERCENT_PER_MONTH_CALENDAR_DAYS', value: 1 },
  discount: { modality: 'FIXED_AMOUNT_UNTIL_DATE', fixed_dates: [{ date: '2099-12-05', value: 5 }] },
};

/** Due-date Pix charges (BCB cobv), beside the immediate ones of /v2/pix and named after BCB's resource: served by payments-service. */
@MerchantRoutes('Due-date Pix charges')
@Controller('v2/cobv')
export class DueDateChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's name (the Pix code) and cashin_provider (the charge's provider). */
  @Route({
    summary: 'Create a due-date Pix charge',
    description:
      'Creates a due-date Pix charge, the Pix that replaces the boleto: an amount due on `due_date`, payable up to `days_valid_after_due` days after it, with an optional fine and interest after the due date, a discount for paying early and an abatement. ' +
      "It starts PENDING with a dynamic Pix code (`pix_copy_paste`, `qrcode`) that points at the charge: the payer's bank reads the amount of the day when the payer scans it, and `amount_due` shows what that is today and why. " +
      'When the payer pays it becomes PAID (`amount_paid`); unpaid after its `last_payable_day` it becomes EXPIRED. With a `webhook`, those changes are notified there (`due_date_charge.paid`, `due_date_charge.expired`, `due_date_charge.cancelled`). ' +
      '`transaction_id` is unique in your account: repeating a creation with the same one is refused, never creates a second charge.',
    body: 'CreateDueDateChargeRequest',
    example: EXAMPLE_CHARGE,
    ok: [201, 'DueDateChargeResponse'],
    errors: [
      invalid(T.transactionIdTaken),
      invalid(D.dueDateInThePast),
      invalid(D.fixedDateAfterDue),
      invalid(D.amountNotBelowCharge('abatement')),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createDueDateCharge, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'Get a due-date Pix charge',
    description:
      'Returns a due-date charge as it is now, found by exactly one of `id` and `transaction_id`, with what the payer owes today (`amount_due`) while it is PENDING.',
    query: [
      { name: 'id', type: 'integer', description: "The charge's `id` (an integer). Send this or `transaction_id`, not both." },
      { name: 'transaction_id', description: 'Your `transaction_id` of the charge. Send this or `id`, not both.', example: 'boleto-example-0000' },
    ],
    ok: [200, 'DueDateChargeResponse'],
    errors: [invalid(P.identifierRequired), invalid(P.onlyOneIdentifier), notFound(D.notFound)],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getDueDateCharge, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'List due-date Pix charges',
    description:
      'Lists the due-date charges created from `start` to `end`, newest first, one page at a time (`pagination` says how many pages and charges there are), optionally only those of one `status`. List results carry `pix_copy_paste` but not `qrcode`.',
    query: [
      ...periodPageQuery('Charges'),
      { name: 'status', enum: ['PENDING', 'PAID', 'EXPIRED', 'CANCELLED'], description: 'Only charges with this status now. Absent: every status.' },
    ],
    ok: [200, 'DueDateChargeListResponse'],
    errors: [invalid(L.periodRequired), invalid(L.dateTimeInvalid('query.start')), invalid(D.statusInvalid)],
  })
  @Get('charges')
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.listDueDateCharges, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Change or cancel a due-date Pix charge',
    description:
      "Changes a PENDING charge: any of its amount, due date, days of validity, payer, fine, interest, discount, abatement and description (null removes a rule or the description); the others stay as they are, and its Pix code stays the same (the payer's bank reads the new terms). " +
      '`{"status": "CANCELLED"}`, sent alone, cancels it: it can no longer be paid and `due_date_charge.cancelled` goes to its webhook. Cancelling again answers the charge unchanged; a PAID or EXPIRED charge can no longer be changed.',
    params: { id: ["The charge's `id` (an integer).", EXAMPLE_NUMBER] },
    body: 'ChangeDueDateChargeRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'DueDateChargeResponse'],
    errors: [invalid(D.nothingToChange), invalid(D.cancelAlone), invalid(D.notChangeable('PAID')), notFound(D.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
  })
  @Patch(':id')
  change(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.changeDueDateCharge, tenantOf(request), request, reply);
  }
}

/** The sandbox payer pays a due-date charge on the test clock's today. Registered on the sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/cobv/:id')
export class SandboxDueDateChargesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer pays the due-date charge today',
    description:
      "Sandbox only: plays the payer paying a PENDING due-date charge on the test clock's today, the amount of that day (the discount before the due date, the fine and interest after it): advance the clock to pay on another day. " +
      "It becomes PAID with `amount_paid`, and `due_date_charge.paid` goes to its webhook. A cash-in limit set for the payer's CPF or CNPJ is checked on that amount first.",
    params: { id: ["The charge's `id` (an integer).", EXAMPLE_NUMBER] },
    ok: [200, 'DueDateChargeResponse'],
    errors: [
      invalid(P.pathIdInvalid),
      invalid(D.notPayable('PAID')),
      invalid(D.pastValidity('2026-12-15')),
      limitExceeded(Messages.limitExceeded.amount('cashin', '52998224725', '102.16', '100.00')),
      notFound(D.notFound),
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post('pay')
  pay(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayDueDateCharge, tenantOf(request), request, reply);
  }
}
