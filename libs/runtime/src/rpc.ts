import { ArgumentsHost, CallHandler, Catch, ExceptionFilter, ExecutionContext, Injectable, Logger, NestInterceptor, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Server } from 'node:net';
import { from, map, mergeMap, Observable, of } from 'rxjs';
import { ServiceReply, ServiceRequest, Tenant, WrittenPosition } from '@pixauto/contracts';
import { collectingWrites, FollowedPosition, FollowerPositions, latestWrites } from '@pixauto/event-store';
import { Messages, notFound, refuse, unavailable } from '@pixauto/errors';
import { groupsFollowing } from '@pixauto/messaging';
import { SystemClock } from '@pixauto/pix';
import { NestLogger } from '@pixauto/telemetry';
import { ServiceConfig } from './config';
import { BODY_LIMIT_BYTES, genReqId, logFailure, toHttpError } from './http';
import { startOperations } from './operations';
import { instrumentHttp, RpcObservationInterceptor } from './request-logging';
import { drainableHttp, GracefulShutdown, RpcAdmission } from './shutdown';
import { TenantClocks } from './sandbox-clock';
import { ServiceTcpServer } from './tcp-server';
import { InterceptorChain } from './interceptor-chain';

/**
 * The gateway sends a sandbox tenant's clock offset with each request, so a date rule right after a clock advance
 * already follows it (Kafka brings the same offset to the timers a moment later).
 */
@Injectable()
export class TenantClockInterceptor implements NestInterceptor {
  constructor(private readonly clocks: TenantClocks) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'rpc') {
      const request = context.switchToRpc().getData<ServiceRequest>();
      if (request?.tenant?.environment === 'sandbox' && typeof request.clock_offset_ms === 'number')
        this.clocks.observe(request.tenant.accountId, request.clock_offset_ms);
    }
    return next.handle();
  }
}

/**
 * A request still queued here (event loop, pool) when the gateway has stopped waiting for it is refused before it
 * begins: 503 with Retry-After, nothing done, so a late answer nobody reads never becomes a half-known write.
 */
@Injectable()
export class DeadlineInterceptor implements NestInterceptor {
  /** Real time for every tenant, as the gateway's: a sandbox test clock does not move deadlines. */
  private readonly wallClock = new SystemClock();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'rpc' && isPastDeadline(context.switchToRpc().getData<ServiceRequest>(), this.wallClock.now().getTime())) {
      refuse(unavailable(Messages.request.serviceUnavailable));
    }
    return next.handle();
  }
}

/** How long a read waits for this service's followers to apply a merchant's own writes before it answers 503. */
const OWN_WRITES_WAIT_MS = 3000;

/**
 * A merchant reads its own writes (docs/decisions/read-your-writes.md). A write's reply names the events it appended
 * (`written`, for the gateway only); a read the gateway sends with the merchant's recent writes waits until this
 * service's followers have applied those they follow, up to OWN_WRITES_WAIT_MS, and is 503 with Retry-After past it,
 * never an answer that misses them.
 */
@Injectable()
export class OwnWritesInterceptor implements NestInterceptor {
  constructor(private readonly positions: FollowerPositions) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const wanted = followedPositions(context.switchToRpc().getData<ServiceRequest | undefined>()?.written);
    const written: WrittenPosition[] = [];
    const handle = (): Observable<unknown> =>
      collectingWrites(written, () => next.handle()).pipe(
        map((reply) => (written.length > 0 && isServiceReply(reply) ? { ...reply, written: latestWrites(written) } : reply)),
      );
    if (wanted.length === 0) return handle();
    return from(this.positions.awaitApplied(wanted, OWN_WRITES_WAIT_MS)).pipe(
      mergeMap((applied) => (applied ? handle() : refuse(unavailable(Messages.request.serviceUnavailable)))),
    );
  }
}

/** Of the merchant's writes, those a follower of this process applies, each with the follower that must have. */
const followedPositions = (written: unknown): FollowedPosition[] =>
  (Array.isArray(written) ? (written as WrittenPosition[]) : []).flatMap((w) =>
    groupsFollowing(w.topic, w.type).map((group) => ({ group, topic: w.topic, stream: w.stream, version: w.version })),
  );

const isServiceReply = (reply: unknown): reply is ServiceReply =>
  typeof reply === 'object' && reply !== null && typeof (reply as ServiceReply).status === 'number';

export const isPastDeadline = (request: ServiceRequest | undefined, nowMs: number): boolean =>
  typeof request?.deadline_ms === 'number' && nowMs > request.deadline_ms;

/** The payer's side exists only in the sandbox: the gateway routes it there only, a service checks again. */
export const sandboxTenantOf = (request: ServiceRequest): Tenant =>
  request.tenant.environment === 'sandbox' ? request.tenant : refuse(notFound(Messages.request.routeNotFound));

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
