import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { SandboxClockResponse } from '@pixauto/contracts';
import { SandboxClocks } from '../sandbox-clocks';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** platform.md §4: the tenant's test clock. Registered on the sandbox listener only, so production answers 404. */
@Controller('v2/sandbox/clock')
export class SandboxClockRoutes {
  constructor(private readonly clocks: SandboxClocks) {}

  @Get()
  get(@Req() request: AuthenticatedRequest): Promise<SandboxClockResponse> {
    return this.clocks.get(tenantOf(request));
  }

  @Post('advance')
  @HttpCode(200)
  advance(@Req() request: AuthenticatedRequest, @Body() body: unknown): Promise<SandboxClockResponse> {
    return this.clocks.advance(tenantOf(request), body);
  }
}
