import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, ReceiptModule } from './receipt.module';

// NestJS TCP for the gateway's receipt requests.
void startService(ReceiptModule, config);
