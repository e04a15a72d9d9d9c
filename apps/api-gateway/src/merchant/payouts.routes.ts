import { Controller, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, EXAMPLE_NUMBER, MerchantRoutes, Route, WRITE_REFUSALS, invalid, limitExceeded, notFound } from '../openapi/route-doc';

const T = Messages.transactions;
const P = Messages.payments;
const O = Messages.payouts;

/** Payout creation (platform.md §3), served by payments-service. The account's provider processes it. */
@MerchantRoutes('Payouts')
@Controller('v2/payout')
export class PayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Pay out to a Pix key',
    description: 'platform.md §3: the payout record (service-api.md 2.3), status 0.',
    body: 'CreatePayoutRequest',
    example: { transaction_id: 'pay-example-0001', amount: 10, name: 'Maria Souza', document_number: '52998224725', pix_key: '52998224725' },
    ok: [201, 'PayoutResponse'],
    errors: [invalid(T.transactionIdTaken), invalid(T.pixKeyInvalid), limitExceeded(Messages.limitExceeded.quantity('cashout', '52998224725', 1)), [403, { message: Messages.auth.transactionsForbidden }], ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post('pix')
  toPixKey(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createPixPayout, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'Pay out to a bank account',
    description: 'platform.md §3: as POST /v2/payout/pix with `bank` instead of `pix_key`.',
    body: 'CreatePayoutRequest',
    example: { transaction_id: 'pay-example-0002', amount: 10, name: 'Maria Souza', document_number: '52998224725', bank: { ispb: '00000000', account_agency: '0001', account_number: '12345-6' } },
    ok: [201, 'PayoutResponse'],
    errors: [invalid(T.transactionIdTaken), invalid(T.bankIspbInvalid), [403, { message: Messages.auth.transactionsForbidden }], ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post()
  toAccount(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createAccountPayout, tenantOf(request), request, reply, request.account);
  }
}

/** platform.md §4: the bank behind the sandbox moves a payout now, or sends a completed one back. Sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/payouts/:id')
export class SandboxPayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The bank moves the payout to a status',
    params: { id: ['The payout id (integer)', EXAMPLE_NUMBER] },
    body: 'SandboxPayoutStatusRequest',
    example: { status: 1 },
    ok: [200, 'PayoutResponse'],
    errors: [invalid(O.statusInvalid), invalid(O.ended(1, 'COMPLETED')), invalid(P.pathIdInvalid), notFound(O.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('status')
  status(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayoutStatus, tenantOf(request), request, reply);
  }

  /** The receiving bank sends the completed payout back (a refund of the payout), whole or `{amount, refund_id}`. */
  @Route({
    summary: 'The receiving bank returns a completed payout',
    params: { id: ['The payout id (integer)', EXAMPLE_NUMBER] },
    body: 'SandboxPayoutReturnRequest',
    bodyOptional: true,
    example: { amount: 1 },
    ok: [200, 'PayoutResponse'],
    errors: [invalid(O.notReturnable(0, 'CREATED')), invalid(O.fullyReturned), invalid(P.pathIdInvalid), notFound(O.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('return')
  return(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxPayoutReturn, tenantOf(request), request, reply);
  }
}
