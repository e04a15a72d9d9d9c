import 'reflect-metadata';
import { startService } from '@pixauto/runtime';
import { config, WebhookDispatcherModule } from './webhook-dispatcher.module';

// NestJS TCP for the gateway's delivery-log messages; the deliveries themselves go out over HTTP(S).
void startService(WebhookDispatcherModule, config);
