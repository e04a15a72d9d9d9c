import 'reflect-metadata';
import { GracefulShutdown } from '@pixauto/runtime';
import { createSimulatorApp } from './app';
import { simulatorConfig } from './config';

async function main(): Promise<void> {
  const config = simulatorConfig();
  const app = await createSimulatorApp(config);
  await app.listen(config.port, config.host);
  // No ops listener (its /health is on its one port): the same drain, then its sweepers and notifier stop.
  new GracefulShutdown({ delayMs: config.shutdownDelayMs }).http(app).application(app).listen();
}

void main();
