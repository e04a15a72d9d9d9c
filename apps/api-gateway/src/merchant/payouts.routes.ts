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

/** Payout creation, served by payments-service. The account's provider processes it. */
@MerchantRoutes('Payouts')
@Controller('v2/payout')
export class PayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Pay out to a Pix key',
    description:
      "Sends money by Pix to the beneficiary's Pix key (`pix_key`) or bank account (`bank`), one of the two. The payout is recorded at once and answered with status 0 (created); the bank then moves it, usually within seconds, to 4 (processing) and 1 (completed, with `paid_at`, `e2e` and the beneficiary as the bank names it), " +
      'or to 3 (rejected, e.g. a Pix key that does not exist) or 2 (canceled). Follow it with GET /v2/withdrawals or its `webhook` (`payout.created`, `payout.status_changed`). ' +
      "A cash-out limit set for the beneficiary's CPF or CNPJ is checked first: beyond it the request is refused with a LimitExceededError and nothing is created; a rejected or canceled payout gives its unit of the day back. " +
      '`transaction_id` is unique in your account: repeating a creation with the same one is refused, never pays twice.',
    body: 'CreatePayoutRequest',
    example: { transaction_id: 'pay-example-0001', amount: 10, name: 'Maria Souza', document_number: '52998224725', pix_key: '52998224725' },
    ok: [201, 'PayoutResponse'],
    errors: [
      invalid(T.transactionIdTaken),
      invalid(T.pixKeyInvalid),
      limitExceeded(Messages.limitExceeded.quantity('cashout', '52998224725', 1)),
      ...WRITE_REFUSALS,
      ...BANK_REFUSALS,
    ],
    idempotent: true,
  })
  @Post('pix')
  toPixKey(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createPixPayout, tenantOf(request), request, reply, request.account);
  }

  @Route({
    summary: 'Pay out to a bank account',
    description:
      'Sends money by Pix to a bank account: the same as POST /v2/payout/pix, with `bank` required and no `pix_key`. The payout starts at status 0 and the bank moves it to 4 (processing) and 1 (completed), or to 2 (canceled) or 3 (rejected). ' +
      "The cash-out limit of the beneficiary's CPF or CNPJ applies.",
    body: 'CreatePayoutRequest',
    example: {
      transaction_id: 'pay-example-0002',
      amount: 10,
      name: 'Empresa Nova Ltda',
      document_number: '12ABC34501DE35',
      bank: { ispb: '00000000', account_agency: '0001', account_number: '12345-6' },
    },
    ok: [201, 'PayoutResponse'],
    errors: [invalid(T.transactionIdTaken), invalid(T.bankIspbInvalid), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post()
  toAccount(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.createAccountPayout, tenantOf(request), request, reply, request.account);
  }
}

/** The bank behind the sandbox moves a payout now, or sends a completed one back. Sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/payouts/:id')
export class SandboxPayoutsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The bank moves the payout to a status',
    description:
      'Sandbox only: the bank moves a payout to `status` now: 4 (processing), 1 (completed), 2 (canceled) or 3 (rejected); a rejected or canceled payout gives its cash-out limit unit back. ' +
      'Without this call a new sandbox payout goes 0 → 4 → 1 by itself within a few seconds. A payout at 1, 2 or 3 can no longer change.',
    params: { id: ["The payout's `id` (an integer).", EXAMPLE_NUMBER] },
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
    description:
      "Sandbox only: the receiving bank sends a completed payout (status 1) back, whole or in part, up to what is left of it. The payout keeps status 1 and shows the return's `refund_id`; " +
      "`payout.returned` goes to its webhook, and the return's receipt is at once available from GET /v2/withdrawals/refund/receipt.",
    params: { id: ['The `id` of a completed payout (an integer).', EXAMPLE_NUMBER] },
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
