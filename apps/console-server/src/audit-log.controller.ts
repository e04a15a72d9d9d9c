import { Controller, Get, Query, Req } from '@nestjs/common';
import type { AuditLogPage } from '@pixauto/contracts';
import { Messages, refuse } from '@pixauto/errors';
import { Gateway } from './gateway';
import type { SignedInRequest } from './session.guard';

/**
 * The account's audit log (docs/decisions/audit-log.md): who changed its keys, secrets, limits, test clock and team,
 * and when, read through the admin API for an owner alone; every other role is refused, whatever it asks.
 */
@Controller('console/v1/audit-log')
export class AuditLogController {
  constructor(private readonly gateway: Gateway) {}

  @Get()
  list(@Req() request: SignedInRequest, @Query('cursor') cursor: unknown): Promise<AuditLogPage> {
    if (request.session.role !== 'owner') return refuse({ kind: 'forbidden', message: Messages.console.auditOwnerOnly });
    return this.gateway.auditLog(request.session.account_id, typeof cursor === 'string' && cursor !== '' ? cursor : undefined);
  }
}
