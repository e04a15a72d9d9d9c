import { ArgumentsHost, Catch, Logger, RpcExceptionFilter, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { Observable, of } from 'rxjs';
import { ServiceReply } from '@pixauto/contracts';
import { ServiceConfig } from './config';
import { toHttpError } from './http';

/** A refusal or a failure is a reply like any other: the status and body the merchant will see. */
@Catch()
export class ServiceReplyFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('ServiceReplyFilter');

  catch(error: unknown, _host: ArgumentsHost): Observable<ServiceReply> {
    const answer = toHttpError(error);
    if (answer.status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return of(answer);
  }
}

/** A service: a NestJS TCP microservice on its port, answering the gateway's messages. */
export async function startService(module: Type<unknown>, config: ServiceConfig): Promise<void> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    transport: Transport.TCP,
    options: { host: config.host, port: config.port },
    logger: ['error', 'warn', 'log'],
  });
  app.useGlobalFilters(new ServiceReplyFilter());
  app.enableShutdownHooks();
  await app.listen();
}
