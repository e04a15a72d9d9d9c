import { BeforeApplicationShutdown, DynamicModule, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runMigrations } from '@pixauto/event-store';
import { SystemClock } from '@pixauto/pix';
import { dataSourceOptions, ensureDatabase } from '@pixauto/runtime';
import { SimulatorConfig } from './config';
import {
  ImmediateChargesController,
  RecurrenceLocationsController,
  RecurrencesController,
  RecurrenceWebhookController,
  SolicitationsController,
} from './http/bcb.controllers';
import { HealthController } from './http/health.controller';
import { PayerController } from './http/payer.controller';
import { SimulatedBank } from './simulated-bank';
import { SolicitationSweeper } from './solicitation-sweeper';
import { SIMULATOR_MIGRATIONS } from './store/schema.migration';
import { BankStore } from './store/bank-store';
import { WebhookNotifier } from './webhook-notifier';

/** Schema before traffic; the sweeper runs while the app does; deliveries and sweeps stop before the database closes. */
@Injectable()
class SimulatorLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sweeper: SolicitationSweeper,
    private readonly notifier: WebhookNotifier,
  ) {}

  async onModuleInit(): Promise<void> {
    await runMigrations(this.dataSource);
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
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
            const options = dataSourceOptions(config, SIMULATOR_MIGRATIONS);
            return { ...options, extra: { max: config.databasePoolSize } };
          },
        }),
      ],
      controllers: [
        HealthController,
        RecurrenceLocationsController,
        RecurrencesController,
        SolicitationsController,
        ImmediateChargesController,
        RecurrenceWebhookController,
        PayerController,
      ],
      providers: [
        { provide: WebhookNotifier, useValue: new WebhookNotifier({ retryDelaysMs: config.webhookRetryDelaysMs, timeoutMs: config.webhookTimeoutMs }) },
        {
          provide: SimulatedBank,
          inject: [DataSource, WebhookNotifier],
          useFactory: (dataSource: DataSource, notifier: WebhookNotifier) => new SimulatedBank(dataSource, new BankStore(), new SystemClock(), config, notifier),
        },
        { provide: SolicitationSweeper, inject: [SimulatedBank], useFactory: (bank: SimulatedBank) => new SolicitationSweeper(bank, config.sweepEveryMs) },
        SimulatorLifecycle,
      ],
    };
  }
}
