import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ApiKeyDirectory, AuditWriter } from '@pixauto/accounts';
import { RequestLogWriter } from '@pixauto/request-log';
import { SecretBox } from '@pixauto/secrets';
import { CLOCK, createHttpApp, GracefulShutdown, instrumentHttp, startOperations } from '@pixauto/runtime';
import { flushLogs, NestLogger, rootLogger } from '@pixauto/telemetry';
import { AdminApiModule } from './admin/admin-api.module';
import { config, GatewayCoreModule, REDIS } from './core.module';
import { IdempotentPosts } from './merchant/idempotency';
import { logRequests } from './merchant/request-log';
import { auditChanges, MerchantActors } from './merchant/audit';
import { refuseUnstorableText } from './merchant/text-guard';
import { MerchantApiModule } from './merchant/merchant-api.module';
import { serveReference } from './openapi/document';
import { followSupervisor, listenOptions, superviseProcesses } from './processes';

/**
 * GATEWAY_PROCESSES above 1: this process only supervises that many gateway processes, which share the listeners'
 * ports (processes.ts); SIGTERM (or SIGINT) is passed to each, and it exits once they all have.
 */
function supervise(): void {
  const logger = new NestLogger(rootLogger(config.service));
  const supervisor = superviseProcesses(config.processes, {
    modulePath: process.argv[1],
    args: process.argv.slice(2),
    log: (message) => logger.log(message, 'Gateway'),
  });
  const stop = async (signal: string) => {
    logger.log(`${signal}: stopping the gateway processes`, 'Gateway');
    const code = await supervisor.stop();
    logger.log(`every gateway process stopped, exiting ${code}`, 'Gateway');
    flushLogs();
    process.exit(code);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop(signal));
}

/**
 * One process, three listeners: production, sandbox and, when ADMIN_TOKEN is set, admin; and its
 * ops listener (health, metrics) on OPS_PORT, up from the start and ready once the three listen. SIGTERM drains the
 * listeners, then closes what they share (GracefulShutdown).
 */
async function main(): Promise<void> {
  const shared = config.processes > 1;
  if (shared && config.processIndex === undefined) return supervise();
  if (config.processIndex !== undefined) followSupervisor();
  const operations = await startOperations(config);
  const shutdown = new GracefulShutdown({ delayMs: config.shutdownDelayMs, operations });
  const core = await NestFactory.createApplicationContext(GatewayCoreModule, { logger: new NestLogger() });
  // Every hook on, unless a bench turns some off (GATEWAY_HOOKS_OFF, hooks.ts: refused at start outside the bench).
  const off = config.hooksOff;
  const actors = new MerchantActors(config.adminToken);
  const audit = new AuditWriter(core.get(DataSource).manager); // one for both listeners: their entries share statements
  const merchantApp = (environment: 'production' | 'sandbox') =>
    createHttpApp(MerchantApiModule.forEnvironment(environment, core, { rateLimits: !off.has('rate-limit'), actors }), { hooksOff: off });
  const production = await merchantApp('production');
  const sandbox = await merchantApp('sandbox');
  for (const [app, environment] of [
    [production, 'production'],
    [sandbox, 'sandbox'],
  ] as const) {
    const fastify = app.getHttpAdapter().getInstance();
    instrumentHttp(fastify, environment, off);
    if (!off.has('text-guard')) refuseUnstorableText(fastify); // first: a refused request claims no Idempotency-Key
    if (!off.has('idempotency')) new IdempotentPosts(core.get(REDIS), core.get(ApiKeyDirectory), environment, core.get(SecretBox)).install(fastify);
    if (!off.has('request-log')) logRequests(fastify, environment, core.get(RequestLogWriter), core.get(ApiKeyDirectory), core.get(CLOCK), config.adminToken);
    if (!off.has('audit')) auditChanges(fastify, audit, core.get(CLOCK), actors);
    serveReference(app, environment); // GET /openapi.json and /docs, outside the API-key guard
  }
  await production.listen(listenOptions(config.port, config.host, shared));
  await sandbox.listen(listenOptions(config.sandboxPort, config.host, shared));
  shutdown.http(production).http(sandbox).application(production).application(sandbox);
  if (off.size > 0) new Logger('Gateway').warn(`hooks off, for the bench only: ${[...off].join(', ')}`);
  if (config.adminToken) {
    const admin = await createHttpApp(AdminApiModule.withToken(config.adminToken, core));
    instrumentHttp(admin.getHttpAdapter().getInstance(), 'admin');
    serveReference(admin, 'admin');
    await admin.listen(listenOptions(config.adminPort, config.host, shared));
    shutdown.http(admin).application(admin);
  } else {
    new Logger('Gateway').warn('ADMIN_TOKEN is not set: the admin API is off');
  }
  shutdown.application(core); // last: the listeners' requests use its Redis, pools and service clients
  operations.started(core, { redis: core.get(REDIS) });
  shutdown.listen();
  new Logger('Gateway').log(`production :${config.port}, sandbox :${config.sandboxPort}${config.adminToken ? `, admin :${config.adminPort}` : ''}`);
}

void main();
