import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

/** POST and GET /v2/limits, served by limits-service. */
@MerchantRoutes('Customer limits')
@Controller('v2/limits')
export class LimitsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "Create or replace a customer's limit",
    description:
      "Sets a customer's limit on cash-in (Pix charges they pay, POST /v2/pix) or cash-out (payouts to them, POST /v2/payout/pix and POST /v2/payout): by `amount`, a cap on each transaction's value, or by `quantity`, a cap on their transactions per day (Brasília time). " +
      'A POST for a `document_number` and `type` that already have a limit replaces it whole. It applies from the very next transaction, which is refused with a LimitExceededError when beyond it; ' +
      'transactions made earlier the same day count towards a new quantity limit. A customer without a limit is not restricted.',
    body: 'SetLimitRequest',
    example: { document_number: '52998224725', type: 'cashin', mechanism: 'amount', amount: 500 },
    ok: [200, 'LimitResponse'],
    errors: [
      invalid(Messages.limits.amountPositive),
      invalid(Messages.limits.typeInvalidBody),
      invalid(Messages.limits.documentInvalidBody),
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post()
  set(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.set, tenantOf(request), request, reply);
  }

  @Route({
    summary: "A customer's limit",
    description:
      "Returns the customer's limit of one type, as last set. 404 when the customer has none of that type (their transactions are then not restricted).",
    query: [
      {
        name: 'document_number',
        required: true,
        description:
          "The customer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation.",
        example: '11144477735',
      },
      {
        name: 'type',
        required: true,
        enum: ['cashin', 'cashout'],
        description: '`cashin` (Pix charges the customer pays) or `cashout` (payouts to the customer).',
        example: 'cashout',
      },
    ],
    ok: [200, 'LimitResponse'],
    errors: [invalid(Messages.limits.documentInvalidQuery), notFound(Messages.limits.notFound)],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.get, tenantOf(request), request, reply);
  }
}
