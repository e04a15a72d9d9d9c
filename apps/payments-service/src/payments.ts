import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ACTIVATION_SUFFIX, EventEnvelope, RecurrenceApprovedData, RecurrenceEventTypes, Tenant, Topics } from '@pixauto/contracts';
import { refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { Clock, isoUtc } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';
import { findPendingActivation, nextPixChargeId, PIX_CHARGE_STREAM, pixCharge, pixChargeStreamId, projectPixCharge } from '@pixauto/payments';

/** The journey 3 activations, which reach the merchant as paid Pix deposits; the merchant's own charges are PixCharges'. */
@Injectable()
export class Payments {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A recurrence approved in journey 3 had its activation paid: the deposit `<transaction_id>-ativacao`. */
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
        charge: {
          id: await nextPixChargeId(this.dataSource.manager),
          transaction_id: transactionId,
          amount_centavos: activation.amountCentavos,
          status: 'PAID',
          provider: activation.provider,
          payer: activation.payer,
          description: activation.description,
          webhook: activation.webhook,
          pix_copy_paste: null,
          expires_at: activation.expiresAt ? isoUtc(activation.expiresAt) : null,
          created_at: isoUtc(activation.createdAt),
          paid_at: event.occurred_at,
          bank: null, // the activation's charge at the bank is recurrence-service's
          e2e_id: null,
          origin: { recurrence_id: recurrenceId, activation_charge_id: activation.activationChargeId },
        },
      },
      {
        streamId: pixChargeStreamId(tenant, transactionId),
        streamType: PIX_CHARGE_STREAM,
        tenant,
        now: this.clock.now(tenant),
        topic: Topics.payments.name,
        project: projectPixCharge,
      },
    );
    if (!outcome.ok) refuse(outcome.refusal);
  }
}
