import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const S = Messages.solicitations;

/** service-api.md 4.5 to 4.7, served by solicitation-service. */
@MerchantRoutes('Solicitations')
@Controller('v2/automatic-pix/solicitations')
export class SolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Send a recurrence to the payer for authorization',
    description: 'service-api.md 4.5 (journey 1).',
    body: 'CreateSolicitationRequest',
    example: { recurrence_id: 'example-0000', expires_at: '2099-01-05T12:00:00-03:00', destination: { ispb: '00000000', agency: '0001', account: '123456', document_number: '52998224725' } },
    ok: [201, 'SolicitationResponse'],
    errors: [invalid(S.recurrenceIdNotAString), invalid(S.alreadyActive), notFound(S.recurrenceNotFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
    idempotent: true,
  })
  @Post()
  create(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.create, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a solicitation',
    description: 'service-api.md 4.6.',
    params: { solicitation_id: 'The solicitation id' },
    ok: [200, 'SolicitationResponse'],
    errors: [notFound(S.notFound)],
  })
  @Get(':solicitation_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Cancel a solicitation',
    description: 'service-api.md 4.7.',
    params: { solicitation_id: 'The solicitation id' },
    body: 'CancelSolicitationRequest',
    example: { status: 'CANCELLED' },
    ok: [200, 'SolicitationResponse'],
    errors: [invalid(S.statusInvalid), invalid(S.ended('ACCEPTED')), notFound(S.notFound), ...WRITE_REFUSALS, ...BANK_REFUSALS],
  })
  @Patch(':solicitation_id')
  cancel(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.cancel, tenantOf(request), request, reply);
  }
}

/** platform.md §4: the payer answers the alert. Registered on the sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/solicitations/:solicitation_id')
export class SandboxSolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer answers a solicitation',
    description: 'platform.md §4: the recurrence becomes APPROVED (journey 1) or REJECTED.',
    params: { solicitation_id: 'The solicitation id' },
    body: 'SandboxAnswerRequest',
    example: { decision: 'ACCEPT' },
    ok: [200, 'SolicitationResponse'],
    errors: [invalid(S.decisionInvalid), invalid(S.notReceived), notFound(S.notFound), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('answer')
  answer(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.sandboxAnswer, tenantOf(request), request, reply);
  }
}
