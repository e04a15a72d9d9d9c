import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, PaymentsModule } from './payments.module';

void startService(PaymentsModule, config);
