import { ArgumentsHost, Catch, ExceptionFilter, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Server } from 'node:net';
import { Observable, of } from 'rxjs';
import { ServiceReply } from '@pixauto/contracts';
import { FollowerPositions } from '@pixauto/event-store';
import { NestLogger } from '@pixauto/telemetry';
import { ServiceConfig } from './config';
import { BODY_LIMIT_BYTES, genReqId, logFailure, toHttpError } from './http';
import { InterceptorChain } from './interceptor-chain';
import { startOperations } from './operations';
import { instrumentHttp, RpcObservationInterceptor } from './request-logging';
import { DeadlineInterceptor, OwnWritesInterceptor, TenantClockInterceptor } from './rpc';
import { TenantClocks } from './sandbox-clock';
import { drainableHttp, GracefulShutdown, RpcAdmission } from './shutdown';
import { ServiceTcpServer } from './tcp-server';

/**
 * A refusal or a failure is a reply like any other: on the gateway's TCP messages, the status and body the merchant
 * will see; on a service's own HTTP listener (the bank's callbacks), the same as an HTTP answer.
 */
@Catch()
export class ServiceReplyFilter implements ExceptionFilter {
  private readonly logger = new Logger('ServiceReplyFilter');

  catch(error: unknown, host: ArgumentsHost): Observable<ServiceReply> | void {
    const answer = toHttpError(error);
    logFailure(this.logger, error, answer);
    if (host.getType() === 'http') {
      host
        .switchToHttp()
        .getResponse<FastifyReply>()
        .status(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
      return;
    }
    return of(answer);
  }
}

/**
 * Every message's way to its handler, outermost first: observed (access line, metrics, span), admitted (the drain),
 * within its deadline, the tenant's test clock, the merchant's own writes.
 */
const serviceInterceptors = (admission: RpcAdmission, clocks: TenantClocks, positions: FollowerPositions): InterceptorChain =>
  new InterceptorChain([
    new RpcObservationInterceptor(),
    admission,
    new DeadlineInterceptor(),
    new TenantClockInterceptor(clocks),
    new OwnWritesInterceptor(positions),
  ]);

/**
 * A service: a NestJS TCP microservice on its port, answering the gateway's messages, and, when it takes callbacks
 * from outside (the bank's notifications), an HTTP listener of its own on `httpPort`; its ops listener (health,
 * metrics) on `config.opsPort`, up from the start. SIGTERM drains it (GracefulShutdown).
 */
export async function startService(module: Type<unknown>, config: ServiceConfig, options: { httpPort?: number } = {}): Promise<void> {
  const tcp: MicroserviceOptions = { strategy: new ServiceTcpServer({ host: config.host, port: config.port }) };
  const operations = await startOperations(config);
  const logger = new NestLogger();
  const shutdown = new GracefulShutdown({ delayMs: config.shutdownDelayMs, operations });
  const admission = new RpcAdmission();
  if (options.httpPort === undefined) {
    const service = await NestFactory.createMicroservice<MicroserviceOptions>(module, { ...tcp, logger });
    service.useGlobalFilters(new ServiceReplyFilter());
    service.useGlobalInterceptors(serviceInterceptors(admission, service.get(TenantClocks), service.get(FollowerPositions)));
    shutdown.rpc(admission, service.unwrap<Server>()).application(service);
    await service.listen();
    operations.started(service);
    shutdown.listen();
    return;
  }
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, genReqId }), { logger });
  drainableHttp(app.getHttpAdapter().getInstance());
  app.useGlobalFilters(new ServiceReplyFilter());
  app.useGlobalInterceptors(serviceInterceptors(admission, app.get(TenantClocks), app.get(FollowerPositions)));
  instrumentHttp(app.getHttpAdapter().getInstance(), 'http');
  const microservice = app.connectMicroservice<MicroserviceOptions>(tcp, { inheritAppConfig: true });
  shutdown.http(app).rpc(admission, microservice.unwrap<Server>()).application(app);
  await app.init(); // migrations and subscriptions first: no traffic, and not ready, before them
  await app.startAllMicroservices();
  await app.listen(options.httpPort, config.host);
  operations.started(app);
  shutdown.listen();
}
