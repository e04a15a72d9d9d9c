import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, EXAMPLE_NUMBER, MerchantRoutes, Route, WRITE_REFUSALS, invalid, limitExceeded, notFound, periodPageQuery } from '../openapi/route-doc';

const T = Messages.transactions;
const P = Messages.payments;
const L = Messages.lists;

/** Cash-in Pix charges: POST /v2/pix, GET /v2/pix?id= or ?transaction_id= and their list by period, served by payments-service. */
@MerchantRoutes('Pix charges')
@Controller('v2/pix')
export class PaymentsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  /** Creation needs the account's name (the Pix code) and cashin_provider (the charge's provider). */
  @Route({
    summary: 'Create a Pix cash-in charge (QR code)',
    description:
      'Creates a Pix charge for the payer to pay by QR code or Pix copy-and-paste. It starts PENDING, with its code (`pix_copy_paste`, and `qrcode` as an image) payable until `expires_at` (`expires_in` seconds, default one hour). ' +
      'When the payer pays it becomes PAID; unpaid by then it becomes EXPIRED; either way the code is voided. With a `webhook`, each change is notified there (`pix_charge.created`, `pix_charge.paid`, `pix_charge.expired`). ' +
      "A cash-in limit set for the payer's CPF or CNPJ is checked first: beyond it the request is refused with a LimitExceededError and nothing is created. " +
      '`transaction_id` is unique in your account: repeating a creation with the same one is refused, never creates a second charge.',
    body: 'CreatePixChargeRequest',
    example: { transaction_id: 'pix-example-0001', amount: 10.5, payer: { document_number: '52998224725', name: 'Maria Souza' } },
    ok: [201, 'PixChargeResponse'],
    errors: [
      invalid(T.transactionIdTaken),
      invalid(T.payerDocumentInvalid),
      limitExceeded(Messages.limitExceeded.amount('cashin', '52998224725', '10.50', '5.00')),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createPixCharge, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'Get a Pix cash-in charge',
    description:
      "Returns a Pix charge as it is now, found by exactly one of `id` and `transaction_id`. Journey 3 activation payments are found here too, already PAID, by the recurrence's `transaction_id` followed by `-ativacao`.",
    query: [
      { name: 'id', type: 'integer', description: "The charge's `id` (an integer). Send this or `transaction_id`, not both." },
      { name: 'transaction_id', description: 'Your `transaction_id` of the charge. Send this or `id`, not both.', example: 'pix-example-0000' },
    ],
    ok: [200, 'PixChargeResponse'],
    errors: [invalid(P.identifierRequired), invalid(P.onlyOneIdentifier), notFound(P.notFound)],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getPixCharge, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'List Pix cash-in charges',
    description:
      'Lists the Pix charges created from `start` to `end`, newest first, one page at a time (`pagination` says how many pages and charges there are), optionally only those of one `status`. ' +
      'Journey 3 activation payments are listed too, already PAID. A charge shows here as soon as its creation is answered. ' +
      'List results carry `pix_copy_paste` but not `qrcode`: read one charge with GET /v2/pix for its image.',
    query: [
      ...periodPageQuery('Charges'),
      { name: 'status', enum: ['PENDING', 'PAID', 'EXPIRED'], description: 'Only charges with this status now. Absent: every status.' },
    ],
    ok: [200, 'PixChargeListResponse'],
    errors: [invalid(L.periodRequired), invalid(L.dateTimeInvalid('query.start')), invalid(P.statusInvalid)],
  })
  @Get('charges')
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.listPixCharges, tenantOf(request), request, reply);
  }
}

/** The sandbox payer pays a cash-in charge now. Registered on the sandbox listener only, so production answers 404. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/pix/:id')
export class SandboxPaymentsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer pays the Pix charge now',
    description:
      'Sandbox only: plays the payer paying a PENDING Pix charge now. It becomes PAID, its code is voided and `pix_charge.paid` goes to its webhook; from then on it can be refunded.',
    params: { id: ["The Pix charge's `id` (an integer).", EXAMPLE_NUMBER] },
    ok: [200, 'PixChargeResponse'],
    errors: [invalid(P.pathIdInvalid), invalid(P.notPayable('PAID')), notFound(P.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('pay')
  pay(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayPixCharge, tenantOf(request), request, reply);
  }
}
