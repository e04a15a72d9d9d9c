import { BeforeApplicationShutdown, DynamicModule, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runMigrations } from '@pixauto/event-store';
import { dataSourceOptions, ensureDatabase } from '@pixauto/runtime';
import { SimulatorConfig } from './config';
import {
  ImmediateChargesController,
  PixWebhookController,
  ReceivedPixController,
  RecurrenceLocationsController,
  RecurrencesController,
  RecurrenceWebhookController,
  RecurringChargesController,
  RecurringChargeWebhookController,
  SolicitationsController,
} from './http/bcb.controllers';
import { DueDateChargePayerController, DueDateChargePayloadController, DueDateChargesController } from './http/due-date-charges.controllers';
import { HealthController } from './http/health.controller';
import { InfractionsController, SimulatedInfractionsController } from './http/infractions.controller';
import { PayerController } from './http/payer.controller';
import { PayoutsController, PayoutWebhookController } from './http/payouts.controller';
import { SimulatedBank } from './simulated-bank';
import { SimulatedClock } from './simulated-clock';
import { SimulatedDueDateCharges } from './simulated-due-date-charges';
import { Sweeper } from './sweeper';
import { SIMULATOR_MIGRATIONS } from './store/schema.migration';
import { BankStore } from './store/bank-store';
import { WebhookNotifier } from './webhook-notifier';
import { ProviderAController, ProviderBController } from './http/providers.controllers';

const SWEEPERS = Symbol('SWEEPERS');

/** Schema before traffic; the sweepers run while the app does; deliveries and sweeps stop before the database closes. */
@Injectable()
class SimulatorLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(SWEEPERS) private readonly sweepers: Sweeper[],
    private readonly notifier: WebhookNotifier,
  ) {}

  async onModuleInit(): Promise<void> {
    await runMigrations(this.dataSource);
  }

  onApplicationBootstrap(): void {
    for (const sweeper of this.sweepers) sweeper.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.sweepers.map((sweeper) => sweeper.stop()));
    await this.notifier.stop();
  }
}

@Module({})
export class SimulatorModule {
  static forRoot(config: SimulatorConfig): DynamicModule {
    return {
      module: SimulatorModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await ensureDatabase(config);
            return dataSourceOptions(config, SIMULATOR_MIGRATIONS);
          },
        }),
      ],
      controllers: [
        HealthController,
        RecurrenceLocationsController,
        RecurrencesController,
        SolicitationsController,
        ImmediateChargesController,
        RecurringChargesController,
        RecurrenceWebhookController,
        RecurringChargeWebhookController,
        ReceivedPixController,
        PixWebhookController,
        PayoutsController,
        PayoutWebhookController,
        PayerController,
        InfractionsController,
        SimulatedInfractionsController,
        DueDateChargesController,
        DueDateChargePayloadController,
        DueDateChargePayerController,
        ProviderAController,
        ProviderBController,
      ],
      providers: [
        { provide: WebhookNotifier, useValue: new WebhookNotifier({ retryDelaysMs: config.webhookRetryDelaysMs, timeoutMs: config.webhookTimeoutMs }) },
        { provide: SimulatedClock, useValue: new SimulatedClock() },
        {
          provide: SimulatedBank,
          inject: [DataSource, WebhookNotifier, SimulatedClock],
          useFactory: (dataSource: DataSource, notifier: WebhookNotifier, clock: SimulatedClock) =>
            new SimulatedBank(dataSource, new BankStore(), clock, config, notifier),
        },
        {
          provide: SimulatedDueDateCharges,
          inject: [DataSource, WebhookNotifier, SimulatedClock],
          useFactory: (dataSource: DataSource, notifier: WebhookNotifier, clock: SimulatedClock) =>
            new SimulatedDueDateCharges(dataSource, new BankStore(), clock, config, notifier),
        },
        {
          provide: SWEEPERS,
          inject: [SimulatedBank],
          useFactory: (bank: SimulatedBank): Sweeper[] => [
            new Sweeper('SolicitationSweeper', { everyMs: config.sweepEveryMs, batchSize: 100, maxBatchesPerRun: 50 }, (limit) =>
              bank.settleDueSolicitations(limit),
            ),
            new Sweeper('RecurringChargeSweeper', config.recurringChargeSweep, (limit) => bank.settleDueRecurringCharges(limit)),
            new Sweeper('PayoutSweeper', config.payoutSweep, (limit) => bank.settleDuePayouts(limit)),
            new Sweeper('RefundSweeper', config.refundSweep, (limit) => bank.settleDueRefunds(limit)),
          ],
        },
        SimulatorLifecycle,
      ],
    };
  }
}
