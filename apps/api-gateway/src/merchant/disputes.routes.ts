import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Patterns } from '@pixauto/contracts';
import { Messages } from '@pixauto/errors';
import { Upstreams } from '../upstreams';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { EXAMPLE_NUMBER, MerchantRoutes, Route, WRITE_REFUSALS, invalid, notFound, periodPageQuery } from '../openapi/route-doc';

const D = Messages.disputes;

/** Disputes (MED) of the Pix you received, served by payments-service (docs/api/disputes.md). */
@MerchantRoutes('Disputes')
@Controller('v2/disputes')
export class DisputesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: 'List disputes',
    description:
      "Lists the disputes of Pix you received opened from `start` to `end`, newest first, one page at a time (`pagination` says how many pages and disputes there are), of one `status` or all. A dispute is a payer's bank's claim on a Pix (Banco Central's special return mechanism, MED).",
    query: [
      ...periodPageQuery('Disputes'),
      { name: 'status', description: 'Only disputes in this status: OPEN, DEFENDED, RETURNED or REJECTED.', example: 'OPEN' },
    ],
    ok: [200, 'DisputeListResponse'],
    errors: [invalid(Messages.lists.periodRequired), invalid(D.statusInvalid)],
  })
  @Get()
  list(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.listDisputes, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get a dispute',
    description: 'One dispute: the disputed payment, the claim, what is blocked, the deadline for your defence, your defence, and how it ended.',
    params: { id: ["The dispute's `id` (an integer).", EXAMPLE_NUMBER] },
    ok: [200, 'DisputeResponse'],
    errors: [invalid(D.pathIdInvalid), notFound(D.notFound)],
  })
  @Get(':id')
  get(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getDispute, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Get an evidence file of your defence',
    description: 'One file of your defence, as you sent it (base64). Only your account can read it.',
    params: { id: ["The dispute's `id` (an integer).", EXAMPLE_NUMBER], evidence_id: ["The file's `id` in `defence.evidence`.", EXAMPLE_NUMBER] },
    ok: [200, 'DisputeEvidenceResponse'],
    errors: [invalid(D.pathIdInvalid), notFound(D.notFound), notFound(D.evidenceNotFound)],
  })
  @Get(':id/evidence/:evidence_id')
  evidence(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.getDisputeEvidence, tenantOf(request), request, reply);
  }

  @Route({
    summary: 'Defend a dispute',
    description:
      'Sends your defence of an OPEN dispute to the bank: a text and up to 3 files (PDF, PNG or JPEG, each at most 200 KiB, base64-encoded), until `defence_deadline`. ' +
      'One defence per dispute: a second one, or one after the deadline, is refused. The dispute becomes DEFENDED and `pix_charge.dispute_defended` is notified.',
    params: { id: ["The dispute's `id` (an integer).", EXAMPLE_NUMBER] },
    body: 'DisputeDefenceRequest',
    example: { text: 'The customer received the goods on 2 December; the signed delivery note is attached.', evidence: [] },
    ok: [200, 'DisputeResponse'],
    errors: [
      invalid(D.textInvalid),
      invalid(D.contentMismatch(0, 'application/pdf')),
      invalid(D.defenceLate('2026-12-01T12:00:00.000Z')),
      invalid(D.defenceTwice),
      notFound(D.notFound),
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post(':id/defence')
  defend(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.defendDispute, tenantOf(request), request, reply);
  }
}

/** Sandbox: the payer's bank disputes a paid Pix charge. Sandbox listener only (404 on production). */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox')
export class SandboxDisputesRoutes {
  constructor(private readonly upstreams: Upstreams) {}

  @Route({
    summary: "The payer's bank disputes a paid Pix charge",
    description:
      "Sandbox only: the payer's bank opens a dispute on a PAID Pix charge, with the `reason`, `outcome` and timing you choose (days on your account's test clock). " +
      'The dispute is OPEN with the claim blocked; advance the test clock past `defence_deadline` to see a late defence refused, and past `conclude_after_days` to see the bank conclude it: RETURNED (a return of the natureza the reason gives) or REJECTED.',
    params: { id: ["The Pix charge's `id` (an integer).", EXAMPLE_NUMBER] },
    body: 'SandboxDisputeRequest',
    bodyOptional: true,
    example: { reason: 'FRAUD', outcome: 'RETURNED', defence_days: 7, conclude_after_days: 10 },
    ok: [201, 'DisputeResponse'],
    errors: [
      invalid(Messages.payments.pathIdInvalid),
      invalid(D.alreadyOpen),
      invalid(D.notPaid('PENDING')),
      notFound(Messages.refunds.transactionNotFound),
      ...WRITE_REFUSALS,
    ],
    idempotent: true,
  })
  @Post('transactions/:id/dispute')
  open(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.upstreams.relay('payments', Patterns.payments.sandboxOpenDispute, tenantOf(request), request, reply);
  }
}
