import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, SolicitationModule } from './solicitation.module';

void startService(SolicitationModule, config);
