import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply } from 'fastify';
import { HttpError, internalError, Messages, RefusalException, toHttp, validation } from '@pixauto/errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What fastify itself refuses before a handler runs: malformed JSON, other content types, oversized bodies. */
function fromFastify(error: FastifyError): HttpError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return toHttp(validation(Messages.request.contentType));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return toHttp(validation(Messages.request.tooLarge(BODY_LIMIT_BYTES)));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return toHttp(validation(Messages.request.malformedJson));
    default:
      return error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))
        ? toHttp(validation(Messages.request.malformedJson))
        : undefined;
  }
}

/** The one place where anything thrown becomes an HTTP answer in the spec's shapes; nothing else leaks. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof RefusalException) return toHttp(error.refusal);
  if (error instanceof HttpException && error.getStatus() === 404) return { status: 404, body: { message: Messages.request.routeNotFound } };
  const fastify = typeof error === 'object' && error !== null && 'code' in error ? fromFastify(error as FastifyError) : undefined;
  if (fastify) return fastify;
  if (error instanceof HttpException && error.getStatus() < 500) {
    return toHttp(validation(error.message));
  }
  return internalError();
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const answer = toHttpError(error);
    if (answer.status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    host.switchToHttp().getResponse<FastifyReply>().status(answer.status).send(answer.body);
  }
}

/** A NestJS application on Fastify with the platform's error shapes and body limit. */
export async function createHttpApp(module: Type<unknown>, options: { logger?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, return503OnClosing: true });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger === false ? false : ['error', 'warn', 'log'],
    bufferLogs: false,
  });
  app.useGlobalFilters(new HttpErrorFilter());
  app.enableShutdownHooks();
  return app;
}
