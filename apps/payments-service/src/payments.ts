import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ACTIVATION_SUFFIX, EventEnvelope, PixChargeResponse, RecurrenceApprovedData, RecurrenceEventTypes, Tenant, Topics, validatePixChargeQuery } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { Clock, isoUtc } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';
import { findPendingActivation, findPixCharge, nextPixChargeId, PIX_CHARGE_STREAM, pixCharge, pixChargeStreamId, projectPixCharge } from '@pixauto/payments';

/** Cash-in Pix charges (platform.md §3). Today: the journey 3 activations, which reach the merchant as paid deposits (2.1). */
@Injectable()
export class Payments {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(tenant: Tenant, query: unknown): Promise<PixChargeResponse> {
    const request = validatePixChargeQuery(query);
    if (!request.ok) return refuse(request.refusal);
    return (await findPixCharge(this.dataSource.manager, tenant, request.value)) ?? refuse(notFound(Messages.payments.notFound));
  }

  /** A recurrence approved in journey 3 had its activation paid: the deposit `<transaction_id>-ativacao` (2.1, 6). */
  async onRecurrenceApproved(event: EventEnvelope): Promise<void> {
    if (event.type !== RecurrenceEventTypes.approved || (event.data as RecurrenceApprovedData).journey !== 'JOURNEY_3') return;
    const tenant: Tenant = { accountId: event.tenant.account_id, environment: event.tenant.environment };
    const recurrenceId = event.stream_id.split(':').pop() ?? '';
    const activation = await findPendingActivation(this.dataSource.manager, tenant, recurrenceId);
    if (!activation) return;
    const transactionId = `${activation.transactionId}${ACTIVATION_SUFFIX}`;
    const outcome = await this.eventStore.handle(
      pixCharge,
      {
        type: 'RecordPaidDeposit',
        data: {
          id: await nextPixChargeId(this.dataSource.manager),
          transaction_id: transactionId,
          amount_centavos: activation.amountCentavos,
          provider: activation.provider,
          created_at: isoUtc(activation.createdAt),
          paid_at: event.occurred_at,
          origin: { recurrence_id: recurrenceId, activation_charge_id: activation.activationChargeId },
        },
      },
      { streamId: pixChargeStreamId(tenant, transactionId), streamType: PIX_CHARGE_STREAM, tenant, now: this.clock.now(tenant), topic: Topics.payments.name, project: projectPixCharge },
    );
    if (!outcome.ok) refuse(outcome.refusal);
  }
}
