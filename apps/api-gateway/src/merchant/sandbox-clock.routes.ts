import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { SandboxClockResponse } from '@pixauto/contracts';
import { SandboxClocks } from '../sandbox-clocks';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { MerchantActors } from './audit';
import { Messages } from '@pixauto/errors';
import { MerchantRoutes, Route, WRITE_REFUSALS, invalid } from '../openapi/route-doc';

/** The tenant's test clock. Registered on the sandbox listener only, so production answers 404. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/clock')
export class SandboxClockRoutes {
  constructor(
    private readonly clocks: SandboxClocks,
    private readonly actors: MerchantActors,
  ) {}

  @Route({
    summary: 'The sandbox test clock',
    description:
      "Sandbox only: returns your sandbox account's test clock, the time every date rule, due date and expiry of the account follows. It starts at the real time and only moves forward, with POST /v2/sandbox/clock/advance.",
    ok: [200, 'SandboxClockResponse'],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest): Promise<SandboxClockResponse> {
    return this.clocks.get(tenantOf(request));
  }

  @Route({
    summary: 'Advance the test clock',
    description:
      "Sandbox only: moves your sandbox account's clock forward by `days` and `hours` (at most 3660 days a call), and what falls due in between happens within seconds, in order: cycle charges are created and debited, Pix charges, activations and solicitations expire, webhook retries fall due, daily limit counters start again. " +
      'A long advance plays every cycle it passes. The clock is per account, never goes back, and production is never affected.',
    body: 'SandboxClockAdvanceRequest',
    example: { hours: 1 },
    ok: [200, 'SandboxClockResponse'],
    errors: [invalid(Messages.sandboxClock.nothingToAdvance), invalid(Messages.sandboxClock.tooFar), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('advance')
  @HttpCode(200)
  advance(@Req() request: AuthenticatedRequest, @Body() body: unknown): Promise<SandboxClockResponse> {
    return this.clocks.advance(tenantOf(request), body, this.actors.of(request));
  }
}
