import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, LimitsModule } from './limits.module';

void startService(LimitsModule, config);
