import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FOLLOWED_TOPICS, RecurrenceEventTypes, Topics } from '@pixauto/contracts';
import { processOnce } from '@pixauto/event-store';
import { bankSettings, Banks } from '@pixauto/bank';
import { concernsActivation, learnActivation, PAYMENTS_MIGRATIONS } from '@pixauto/payments';
import { EventSourcingModule, kafkaFollower, serviceConfig } from '@pixauto/runtime';
import { CustomerLimits } from './customer-limits';
import { Payments } from './payments';
import { PaymentsController } from './payments.controller';
import { PayoutBankNotices, PayoutSender, Payouts } from './payouts';
import { PayoutsController } from './payouts.controller';
import { bankCallbacks } from './pix-callbacks';
import { BankCallbacksController } from './bank-callbacks.controller';
import { dueDateChargeExpiry, DueDateCharges } from './due-date-charges';
import { DueDateChargesController } from './due-date-charges.controller';
import { pixChargeExpiry, PixCharges } from './pix-charges';
import { disputeConclusions, Disputes } from './disputes';
import { refundReconciler, Refunds } from './refunds';

export const config = serviceConfig('payments-service', 4007);

/** Learns journey 3 activations from the recurrence events, and records each as a deposit once paid. */
const recurrenceFollower = kafkaFollower('RecurrenceFollower', [Payments, DataSource], (payments: Payments, dataSource: DataSource) => ({
  groupId: config.databaseName, // one group per service and per system (dev, e2e, bench share the broker)
  topics: FOLLOWED_TOPICS.paymentsService.map((topic) => topic.name),
  types: Object.values(RecurrenceEventTypes), // not the charges that share the topic
  // Most recurrences have no activation: their events are passed over without a transaction (nothing to record).
  handle: async (event) => {
    if (!concernsActivation(event)) return;
    await processOnce(dataSource, 'recurrence-activations', event.event_id, async (tx) => {
      await learnActivation(tx, event);
      await payments.onRecurrenceApproved(event);
    });
  },
}));

@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      migrations: PAYMENTS_MIGRATIONS,
      topics: [Topics.payments, Topics.payouts, Topics.recurrences],
    }),
  ],
  controllers: [PaymentsController, PayoutsController, BankCallbacksController, DueDateChargesController],
  providers: [
    Payments,
    recurrenceFollower,
    CustomerLimits,
    Payouts,
    PayoutSender,
    PayoutBankNotices,
    PixCharges,
    { provide: 'PixChargeExpiry', inject: [PixCharges], useFactory: pixChargeExpiry },
    DueDateCharges,
    { provide: 'DueDateChargeExpiry', inject: [DueDateCharges], useFactory: dueDateChargeExpiry },
    Refunds,
    { provide: 'RefundReconciler', inject: [Refunds], useFactory: refundReconciler },
    Disputes,
    { provide: 'DisputeConclusions', inject: [Disputes], useFactory: disputeConclusions },
    bankCallbacks,
    { provide: Banks, useFactory: () => new Banks(bankSettings()) },
  ],
})
export class PaymentsModule {}
