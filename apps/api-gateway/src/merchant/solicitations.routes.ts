import { Controller, Get, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { BANK_REFUSALS, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound } from '../openapi/route-doc';

const S = Messages.solicitations;

/** The solicitations (journey 1), served by solicitation-service. */
@MerchantRoutes('Solicitations')
@Controller('v2/automatic-pix/solicitations')
export class SolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'Send a recurrence to the payer for authorization',
    description:
      "Sends a CREATED recurrence to the payer's banking app as an alert to authorize (journey 1). The solicitation starts CREATED and follows the alert's path: SENT to the payer's institution, then RECEIVED there, usually within seconds. " +
      'Its status never says whether the payer agreed: that shows in the recurrence, which becomes APPROVED (journey JOURNEY_1) or REJECTED; if `expires_at` passes without an answer, the recurrence becomes EXPIRED. ' +
      'A recurrence has at most one pending solicitation: cancel it or wait for its outcome before sending another. A wrong `destination.ispb` yields an alert that never arrives.',
    body: 'CreateSolicitationRequest',
    example: {
      recurrence_id: 'example-0000',
      expires_at: '2099-01-05T12:00:00-03:00',
      destination: { ispb: '00000000', agency: '0001', account: '123456', document_number: '52998224725' },
    },
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
    description:
      "Returns the solicitation as it is now: where its alert stands (CREATED, SENT, RECEIVED) or CANCELLED. The payer's decision shows in the recurrence (GET /v2/automatic-pix/recurrences/{recurrence_id}).",
    params: { solicitation_id: 'The `solicitation_id` returned at creation.' },
    ok: [200, 'SolicitationResponse'],
    errors: [notFound(S.notFound)],
  })
  @Get(':solicitation_id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('solicitations', Patterns.solicitations.get, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Cancel a solicitation',
    description:
      'Cancels a solicitation the payer has not answered: the solicitation becomes CANCELLED, the recurrence stays CREATED (send a new solicitation, or let the payer scan the QR code). ' +
      'A solicitation already answered can no longer be cancelled.',
    params: { solicitation_id: 'The `solicitation_id` returned at creation.' },
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

/** The sandbox payer answers the alert. Registered on the sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/solicitations/:solicitation_id')
export class SandboxSolicitationsRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'The payer answers a solicitation',
    description:
      'Sandbox only: plays the payer answering the alert in their banking app, once the solicitation is RECEIVED. ACCEPT makes the recurrence APPROVED with journey JOURNEY_1; REJECT makes it REJECTED. ' +
      'In the sandbox a solicitation reaches RECEIVED by itself within a second or two, except when `destination.ispb` starts with 9999 (an institution that does not exist): the alert then stays SENT and the recurrence expires at `expires_at`.',
    params: { solicitation_id: 'The `solicitation_id` of a sandbox solicitation.' },
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
