import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

/** service-api.md 4.13 and 4.14, served by limits-service. */
@MerchantRoutes('Customer limits')
@Controller('v2/limits')
export class LimitsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "Create or replace a customer's limit",
    description: 'service-api.md 4.13: a POST with an existing document_number and type replaces that limit.',
    body: 'SetLimitRequest',
    example: { document_number: '52998224725', type: 'cashin', mechanism: 'amount', amount: 500 },
    ok: [200, 'LimitResponse'],
    errors: [invalid(Messages.limits.amountPositive), invalid(Messages.limits.typeInvalidBody), invalid(Messages.limits.documentInvalidBody), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post()
  set(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.set, tenantOf(request), request, reply);
  }

  @Route({
    summary: "A customer's limit",
    description: 'service-api.md 4.14.',
    query: [
      { name: 'document_number', required: true, description: 'CPF', example: '11144477735' },
      { name: 'type', required: true, enum: ['cashin', 'cashout'], example: 'cashout' },
    ],
    ok: [200, 'LimitResponse'],
    errors: [invalid(Messages.limits.documentInvalidQuery), notFound(Messages.limits.notFound)],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('limits', Patterns.limits.get, tenantOf(request), request, reply);
  }
}
