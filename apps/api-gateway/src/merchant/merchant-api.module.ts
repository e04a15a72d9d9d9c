import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountProfiles, ApiKeyDirectory } from '@pixauto/accounts';
import { Environment } from '@pixauto/contracts';
import { Upstreams } from '../upstreams';
import { ApiKeyGuard } from './api-key.guard';
import { MerchantActors } from './audit';
import { RateLimiter } from './rate-limit';
import { ChargesRoutes, SandboxChargesRoutes } from './charges.routes';
import { LimitsRoutes } from './limits.routes';
import { PaymentsRoutes, SandboxPaymentsRoutes } from './payments.routes';
import { DueDateChargesRoutes, SandboxDueDateChargesRoutes } from './due-date-charges.routes';
import { PayoutsRoutes, SandboxPayoutsRoutes } from './payouts.routes';
import { RecurrencesRoutes, SandboxRecurrencesRoutes } from './recurrences.routes';
import { DisputesRoutes, SandboxDisputesRoutes } from './disputes.routes';
import { RefundListRoutes, RefundsRoutes, SandboxRefundsRoutes } from './refunds.routes';
import { ReportsRoutes } from './reports.routes';
import { RequestLogRoutes } from './request-log.routes';
import { RequestLogReader } from '@pixauto/request-log';
import { SandboxClockRoutes } from './sandbox-clock.routes';
import { SandboxClocks } from '../sandbox-clocks';
import { SandboxListeners } from '../sandbox-listeners';
import { SandboxEventsRoutes } from './sandbox-events.routes';
import { SandboxSolicitationsRoutes, SolicitationsRoutes } from './solicitations.routes';
import { WebhooksRoutes } from './webhooks.routes';
import { WebhookEndpointsRoutes } from './webhook-endpoints.routes';
import { WithdrawalsRoutes } from './withdrawals.routes';

/** The merchant API of one environment: production on PORT, sandbox on SANDBOX_PORT. */
@Module({})
export class MerchantApiModule {
  /** `rateLimits: false` only in a bench pricing them (GATEWAY_HOOKS_OFF); `actors` names who made a change, for the audit log. */
  static forEnvironment(
    environment: Environment,
    core: INestApplicationContext,
    { rateLimits = true, actors = new MerchantActors(undefined) }: { rateLimits?: boolean; actors?: MerchantActors } = {},
  ): DynamicModule {
    const guard = new ApiKeyGuard(core.get(ApiKeyDirectory), core.get(AccountProfiles), rateLimits ? core.get(RateLimiter) : undefined, environment);
    return {
      module: MerchantApiModule,
      controllers: [
        LimitsRoutes,
        RecurrencesRoutes,
        SolicitationsRoutes,
        PaymentsRoutes,
        DueDateChargesRoutes,
        RefundsRoutes,
        DisputesRoutes,
        RefundListRoutes,
        PayoutsRoutes,
        ChargesRoutes,
        WithdrawalsRoutes,
        WebhooksRoutes,
        WebhookEndpointsRoutes,
        RequestLogRoutes,
        ReportsRoutes,
        ...(environment === 'sandbox'
          ? [
              SandboxRecurrencesRoutes,
              SandboxSolicitationsRoutes,
              SandboxChargesRoutes,
              SandboxClockRoutes,
              SandboxPayoutsRoutes,
              SandboxPaymentsRoutes,
              SandboxDueDateChargesRoutes,
              SandboxRefundsRoutes,
              SandboxDisputesRoutes,
              SandboxEventsRoutes,
            ]
          : []),
      ],
      providers: [
        { provide: Upstreams, useValue: core.get(Upstreams) },
        { provide: SandboxClocks, useValue: core.get(SandboxClocks) },
        { provide: RequestLogReader, useValue: core.get(RequestLogReader) },
        { provide: SandboxListeners, useValue: core.get(SandboxListeners) },
        { provide: MerchantActors, useValue: actors },
        { provide: APP_GUARD, useValue: guard },
      ],
    };
  }
}
