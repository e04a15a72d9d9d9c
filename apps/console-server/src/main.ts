import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { createHttpApp, GracefulShutdown, instrumentHttp, startOperations } from '@pixauto/runtime';
import { config, ConsoleModule } from './console.module';
import { originFormOnly, securityHeaders } from './security-headers';
import { REDIS } from './tokens';

/**
 * The merchant console: the single-page app (apps/console, built into CONSOLE_STATIC_DIR) and the routes it calls
 * (/console/v1), on PORT; health and metrics on OPS_PORT.
 */
async function main(): Promise<void> {
  if (!config.adminToken) throw new Error('ADMIN_TOKEN is not set: the console signs users in through the admin API');
  if (!fs.existsSync(path.join(config.staticDir, 'index.html'))) throw new Error(`${config.staticDir}/index.html is missing: build the console first`);
  const operations = await startOperations(config);
  const shutdown = new GracefulShutdown({ delayMs: config.shutdownDelayMs, operations });
  const app = await createHttpApp(ConsoleModule, { trustProxy: config.trustedProxies });
  const fastify = app.getHttpAdapter().getInstance();
  instrumentHttp(fastify, 'console');
  securityHeaders(fastify, config.secure);
  originFormOnly(fastify);
  app.useStaticAssets({ root: config.staticDir, prefix: '/', index: ['index.html'] });
  await app.listen(config.port, config.host);
  shutdown.http(app).application(app);
  operations.startedOnRedis(app.get(REDIS));
  shutdown.listen();
  new Logger('Console').log(`console :${config.port}`);
}

void main();
