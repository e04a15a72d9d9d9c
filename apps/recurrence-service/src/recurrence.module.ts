import { Logger, Module, Provider } from '@nestjs/common';
import { FOLLOWED_TOPICS, Topics } from '@pixauto/contracts';
import { RECURRENCE_MIGRATIONS } from '@pixauto/recurrences';
import { processOnce } from '@pixauto/event-store';
import { EventSourcingModule, kafkaFollower, PeriodicTask, serviceConfig } from '@pixauto/runtime';
import { DataSource } from 'typeorm';
import { BankCallbacksController } from './bank-callbacks.controller';
import { bankCallbacksProvider, bankSettings, Banks } from '@pixauto/bank';
import { Charges } from './charges';
import { ChargesController } from './charges.controller';
import { Recurrences } from './recurrences';
import { RecurrencesController } from './recurrences.controller';

export const config = serviceConfig('recurrence-service', 4001);
/** Where the bank delivers its notifications (webhookrec): this service's own HTTP listener. */
export const callbackPort = Number(process.env.BANK_CALLBACK_PORT ?? 4101);
const callbackBaseUrl = process.env.BANK_CALLBACK_URL ?? `http://127.0.0.1:${callbackPort}`;

/** The bank's notifications of recurrences (webhookrec) and of their debits (webhookcobr), to this service. */
const bankCallbacks = bankCallbacksProvider(
  callbackBaseUrl,
  async (bank, webhookUrl) => {
    await bank.configureRecurrenceWebhook(webhookUrl);
    await bank.configureRecurringChargeWebhook(webhookUrl);
  },
  new Logger('BankCallbacks'),
);

/** The solicitation outcomes on Kafka (journey 1): the payer's answer approves or rejects the recurrence. */
const solicitationOutcomes = kafkaFollower('SolicitationOutcomes', [Recurrences, DataSource], (recurrences: Recurrences, dataSource: DataSource) => ({
  groupId: config.databaseName, // one group per service and per system (dev, e2e, bench share the broker)
  topics: FOLLOWED_TOPICS.recurrenceService.map((topic) => topic.name),
  handle: (event) => processOnce(dataSource, 'solicitation-outcomes', event.event_id, () => recurrences.applySolicitationOutcome(event)).then(() => undefined),
}));

/**
 * The recurrence's clocks: activation deadlines (journey 3), the cycle charge scheduler and, in the sandbox, the
 * settlement of debits whose day the tenant's clock reached. Each works from a deadline column of the read model,
 * so a restart loses no timer.
 */
const recurrenceTasks: Provider[] = [
  {
    provide: 'ActivationDeadlines',
    inject: [Recurrences],
    useFactory: (recurrences: Recurrences) => new PeriodicTask('ActivationDeadlines', 500, () => recurrences.expireDueActivations()),
  },
  {
    provide: 'ChargeScheduler',
    inject: [Charges],
    useFactory: (charges: Charges) =>
      new PeriodicTask('ChargeScheduler', Number(process.env.CHARGE_SCHEDULER_INTERVAL_MS ?? 1000), () => charges.issueDueCharges()),
  },
  {
    provide: 'SandboxSettlement',
    inject: [Charges],
    useFactory: (charges: Charges) => new PeriodicTask('SandboxSettlement', 1000, () => charges.settleDueSandboxAttempts()),
  },
];

@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      migrations: RECURRENCE_MIGRATIONS,
      topics: [Topics.recurrences, Topics.solicitations],
    }),
  ],
  controllers: [RecurrencesController, ChargesController, BankCallbacksController],
  providers: [{ provide: Banks, useFactory: () => new Banks(bankSettings()) }, Recurrences, Charges, bankCallbacks, solicitationOutcomes, ...recurrenceTasks],
})
export class RecurrenceModule {}
