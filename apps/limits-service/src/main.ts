import 'reflect-metadata';
import { createHttpApp } from '@pixauto/runtime';
import { config, LimitsModule } from './limits.module';

async function main(): Promise<void> {
  const app = await createHttpApp(LimitsModule);
  await app.listen(config.port, config.host);
}

void main();
