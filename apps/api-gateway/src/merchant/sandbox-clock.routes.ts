import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { SandboxClockResponse } from '@pixauto/contracts';
import { SandboxClocks } from '../sandbox-clocks';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';
import { Messages } from '@pixauto/errors';
import { MerchantRoutes, Route, WRITE_REFUSALS, invalid } from '../openapi/route-doc';

/** platform.md §4: the tenant's test clock. Registered on the sandbox listener only, so production answers 404. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/clock')
export class SandboxClockRoutes {
  constructor(private readonly clocks: SandboxClocks) {}

  @Route({
    summary: "The tenant's test clock",
    ok: [200, 'SandboxClockResponse'],
  })
  @Get()
  get(@Req() request: AuthenticatedRequest): Promise<SandboxClockResponse> {
    return this.clocks.get(tenantOf(request));
  }

  @Route({
    summary: 'Advance the test clock',
    description: 'platform.md §4: due charges, expiries and the scheduler run as if the time had passed. It only moves forward.',
    body: 'SandboxClockAdvanceRequest',
    example: { hours: 1 },
    ok: [200, 'SandboxClockResponse'],
    errors: [invalid(Messages.sandboxClock.nothingToAdvance), invalid(Messages.sandboxClock.tooFar), ...WRITE_REFUSALS],
    idempotent: true,
  })
  @Post('advance')
  @HttpCode(200)
  advance(@Req() request: AuthenticatedRequest, @Body() body: unknown): Promise<SandboxClockResponse> {
    return this.clocks.advance(tenantOf(request), body);
  }
}
