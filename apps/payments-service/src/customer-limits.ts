import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LimitResponse, Patterns, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { Messages, refuse, unavailable } from '@pixauto/errors';
import { EnforcedLimit, enforcedLimitOf, judgeLimit, LimitedTransaction, usedToday } from '@pixauto/payments';
import { ServiceClient } from '@pixauto/runtime';

/** How long a limit lookup may take before the transaction is answered 503 (a limit is never skipped). */
const LIMIT_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * The customer limits (docs/decisions/limits.md) at the moment a transaction is created: the limit is asked of
 * limits-service, which owns it (so a limit just set applies to the very next request), and judged against the
 * day's count kept here. The count is taken for good by `reserveLimitUsage` in the transaction's own append.
 */
@Injectable()
export class CustomerLimits implements OnApplicationShutdown {
  /** Every replica of limits-service, a request to one of them (the same balancing as the gateway's). */
  private readonly limitsService = new ServiceClient(process.env.LIMITS_SERVICE_ADDRESS ?? '127.0.0.1:4005');

  constructor(private readonly dataSource: DataSource) {}

  /** The limit in force for this transaction, after refusing it (nothing created yet) if it already breaks it. */
  async admit(transaction: LimitedTransaction): Promise<EnforcedLimit | undefined> {
    const limit = enforcedLimitOf(await this.limitOf(transaction));
    const refusal = judgeLimit(transaction, limit, limit?.mechanism === 'quantity' ? await usedToday(this.dataSource.manager, transaction) : 0);
    return refusal ? refuse(refusal) : limit;
  }

  /** Limits are set per customer document, CPF or CNPJ (docs/decisions/limits.md). */
  private async limitOf({ tenant, documentNumber, type }: LimitedTransaction): Promise<LimitResponse | undefined> {
    const request: ServiceRequest = { tenant, query: { document_number: documentNumber, type } };
    const answer = await this.limitsService.send<ServiceReply>(Patterns.limits.get, request, LIMIT_LOOKUP_TIMEOUT_MS);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) return refuse(unavailable(Messages.request.serviceUnavailable));
    return answer.body as LimitResponse;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.limitsService.close();
  }
}
