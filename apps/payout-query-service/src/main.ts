import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, csvPort, PayoutQueryModule } from './payout-query.module';

// NestJS TCP for the gateway's JSON lookups; HTTP for the CSV export, which streams.
void startService(PayoutQueryModule, config, { httpPort: csvPort });
