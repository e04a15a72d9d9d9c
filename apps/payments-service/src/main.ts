import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, PaymentsModule } from './payments.module';
import { bankCallbackPort } from './pix-callbacks';

// NestJS TCP for the gateway; HTTP for the bank's notifications (Pix received, payouts).
void startService(PaymentsModule, config, { httpPort: bankCallbackPort });
