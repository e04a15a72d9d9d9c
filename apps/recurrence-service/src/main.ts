import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { callbackPort, config, RecurrenceModule } from './recurrence.module';

void startService(RecurrenceModule, config, { httpPort: callbackPort });
