import 'reflect-metadata';
import { createSimulatorApp } from './app';
import { simulatorConfig } from './config';

async function main(): Promise<void> {
  const config = simulatorConfig();
  const app = await createSimulatorApp(config);
  await app.listen(config.port, config.host);
}

void main();
