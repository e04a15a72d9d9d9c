import { Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FOLLOWED_TOPICS, RecurrenceEventTypes, Topics } from '@pixauto/contracts';
import { bankSettings, Banks } from '@pixauto/bank';
import { EventSourcingModule, kafkaFollower, PeriodicTask, serviceConfig } from '@pixauto/runtime';
import { learnRecurrences, SolicitationsReadModel1763800000400, SolicitationWorkClaims1763800000410 } from '@pixauto/solicitations';
import { Solicitations } from './solicitations';
import { SolicitationsController } from './solicitations.controller';

export const config = serviceConfig('solicitation-service', 4002);

/** The recurrences learnt from Kafka: a solicitation is only for a recurrence of the account, still CREATED. */
const recurrenceFollower = kafkaFollower('RecurrenceFollower', [DataSource], (dataSource: DataSource) => ({
  groupId: config.databaseName, // one group per service and per system (dev, e2e, bench share the broker)
  topics: FOLLOWED_TOPICS.solicitationService.map((topic) => topic.name),
  types: Object.values(RecurrenceEventTypes), // not the charges that share the topic
  // A fetch's events in two statements at most (a create's event costs no transaction of its own).
  handleBatch: (events) => learnRecurrences(dataSource.manager, events),
}));

/** The background work: deadlines kept, the bank followed. */
@Injectable()
class SolicitationWork implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly deadlines: PeriodicTask;
  private readonly alerts: PeriodicTask;
  private readonly answers: PeriodicTask;

  constructor(
    solicitations: Solicitations,
    private readonly banks: Banks,
  ) {
    this.deadlines = new PeriodicTask('SolicitationDeadlines', 250, () => solicitations.expireDue());
    // The alert reaches the payer within a second or two; the answer is then checked every 2 s (the sandbox
    // payer's answer is applied at once, and the bank pushes the recurrence's own change to recurrence-service).
    this.alerts = new PeriodicTask('SolicitationAlertsAtBank', 250, () => solicitations.followBank('alert'));
    this.answers = new PeriodicTask('SolicitationAnswersAtBank', 2000, () => solicitations.followBank('answer'));
  }

  onApplicationBootstrap(): void {
    this.deadlines.start();
    this.alerts.start();
    this.answers.start();
  }

  /** First at shutdown (GracefulShutdown): what they commit is flushed from the outbox after them. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.deadlines.stop(), this.alerts.stop(), this.answers.stop()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.banks.close();
  }
}

@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      migrations: [SolicitationsReadModel1763800000400, SolicitationWorkClaims1763800000410],
      topics: [Topics.solicitations, Topics.recurrences],
    }),
  ],
  controllers: [SolicitationsController],
  providers: [{ provide: Banks, useFactory: () => new Banks(bankSettings()) }, Solicitations, recurrenceFollower, SolicitationWork],
})
export class SolicitationModule {}
