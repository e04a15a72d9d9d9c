import { ArgumentsHost, Catch, DynamicModule, ExceptionFilter, HttpException, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Environment, ENVIRONMENTS } from '@pixauto/contracts';
import {
  HttpError,
  internalError,
  isDependencyUnavailable,
  Messages,
  notFound,
  RefusalException,
  refuse,
  toHttp,
  unavailable,
  unavailableDependency,
  validation,
} from '@pixauto/errors';
import { duplicateKeyOf } from './json-body';
import { NestLogger, REQUEST_ID_HEADER, requestIdFrom } from '@pixauto/telemetry';
import { drainableHttp } from './shutdown';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Fastify's request id: the caller's X-Request-Id when acceptable, a UUID otherwise (docs/operations.md "Logs and
 * traces").
 */
export const genReqId = (request: { headers: Record<string, string | string[] | undefined> }): string => requestIdFrom(request.headers[REQUEST_ID_HEADER]);

/** The `:environment` of a bank callback path (`/bank/<environment>/...`); any other value is a route that does not exist. */
export const environmentOfPath = (environment: string): Environment =>
  ENVIRONMENTS.includes(environment as Environment) ? (environment as Environment) : refuse(notFound(Messages.request.routeNotFound));
/** How much of an oversized body is read (and dropped) so its sender gets the answer; beyond it, the connection is cut. */
const OVERSIZED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * The one place where anything thrown becomes an HTTP answer in the spec's shapes; nothing else leaks.
 * A server we depend on that is not there right now (PostgreSQL restarting, Redis or Kafka away, a connection cut:
 * `unavailableDependency`) is 503 with Retry-After, never 500.
 * Nest hands on fastify's own refusals (body parsing, routing) as HttpExceptions carrying fastify's status;
 * our code never throws HttpException, so the status alone says which refusal it was.
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof RefusalException) return toHttp(error.refusal);
  if (isDependencyUnavailable(error)) return toHttp(unavailable(Messages.request.serviceUnavailable));
  if (!(error instanceof HttpException)) return internalError();
  switch (error.getStatus()) {
    case 400:
      return toHttp(validation(Messages.request.malformedJson));
    case 404:
      return { status: 404, body: { message: Messages.request.routeNotFound } };
    case 413:
      return toHttp(validation(Messages.request.tooLarge(BODY_LIMIT_BYTES)));
    case 415:
      return toHttp(validation(Messages.request.contentType));
    default:
      return internalError();
  }
}

/**
 * What a failure answered 5xx leaves in the log: a dependency away is one warning line (a database restart would
 * otherwise write a stack per request), anything else an error with its stack.
 */
export function logFailure(logger: Logger, error: unknown, answer: HttpError): void {
  if (answer.status < 500) return;
  const dependency = answer.status === 503 ? unavailableDependency(error) : undefined;
  if (dependency) logger.warn(`${dependency} unavailable, answered 503: ${error instanceof Error ? error.message : String(error)}`);
  else logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const answer = toHttpError(error);
    logFailure(this.logger, error, answer);
    const http = host.switchToHttp();
    const send = () =>
      http
        .getResponse<FastifyReply>()
        .status(answer.status)
        .headers(answer.headers ?? {})
        .send(answer.body);
    if (error instanceof HttpException && error.getStatus() === 413) afterBody(http.getRequest<FastifyRequest>(), send);
    else send();
  }
}

/**
 * Fastify refuses an oversized body from its Content-Length, before reading it; answering then, while the client
 * is still writing, makes the client see a broken connection (EPIPE) instead of the 400. So the rest is read and
 * dropped first, up to a bound.
 */
function afterBody(request: FastifyRequest, send: () => void): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return send();
  let read = 0;
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > OVERSIZED_BODY_DRAIN_BYTES) raw.destroy();
  });
  raw.once('end', send);
  raw.once('error', () => undefined); // destroyed past the bound: nobody is left to answer
  raw.resume();
}

/** Fastify's own default: longer path parameters are no id of ours. */
const MAX_PARAM_LENGTH = 100;

/** Refusals Fastify makes before any route or hook runs (a path parameter too long, a malformed URL), in our shape. */
function frameworkError(error: { code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  const problem = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? Messages.request.paramTooLong(MAX_PARAM_LENGTH) : Messages.request.badUrl;
  const answer = toHttp(validation(problem));
  void reply.status(answer.status).send(answer.body);
}

/**
 * What cannot even be read as HTTP (headers past Node's 16 kB, a malformed request line) gets the spec's shape too,
 * written on the socket as Fastify's default does, which it replaces.
 */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', Messages.request.headersTooLarge],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', Messages.request.timeout],
};

function clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, problem] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', Messages.request.malformedHttp];
  const body = JSON.stringify({ type: 'ValidationError', message: problem });
  const head = `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close`;
  if (socket.writable) socket.write(`${head}\r\n\r\n${body}`);
  socket.destroy(error);
}

/**
 * Bodies the API refuses rather than guess at: JSON naming a key twice (JSON.parse would keep the last one
 * silently), and a body on a GET or HEAD (Fastify would ignore it). Fastify's own parser, with its protection
 * against prototype poisoning, does the rest.
 */
function refuseAmbiguousBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const duplicate = duplicateKeyOf(body as string);
    if (duplicate === undefined) return parseJson(request, body as string, done);
    done(new RefusalException(validation(Messages.request.duplicateKey(duplicate))), undefined);
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const length = request.headers['content-length'];
    if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return;
    const answer = toHttp(validation(Messages.request.bodyOnRead(request.method)));
    await reply.status(answer.status).send(answer.body);
  });
}

/**
 * The per-request hooks of an HTTP listener (createHttpApp, instrumentHttp) that a bench may leave out to price each
 * (the gateway's GATEWAY_HOOKS_OFF, apps/api-gateway/src/hooks.ts); every listener runs them all otherwise.
 */
export type HttpHook = 'drain' | 'body-checks' | 'request-id' | 'tracing' | 'metrics' | 'logging';
export type HttpHooksOff = ReadonlySet<HttpHook | string>;

/**
 * A NestJS application on Fastify with the platform's error shapes and body limit, drainable by GracefulShutdown
 * (whose own 503 carries Retry-After and the platform's shape, hence no return503OnClosing).
 */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  options: {
    logger?: boolean;
    hooksOff?: HttpHooksOff;
    /** Addresses or CIDR ranges of the proxies in front whose X-Forwarded-For is believed: `request.ip` is then the client's. */
    trustProxy?: readonly string[];
  } = {},
): Promise<NestFastifyApplication> {
  const off = options.hooksOff ?? new Set();
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    maxParamLength: MAX_PARAM_LENGTH,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    ...(options.trustProxy !== undefined && options.trustProxy.length > 0 && { trustProxy: [...options.trustProxy] }),
    // Without it, Fastify's own ids (req-1, req-2, ...).
    ...(!off.has('request-id') && { genReqId }),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger === false ? false : new NestLogger(),
    bufferLogs: false,
    // Fastify's own JSON parser only: Nest would add form-urlencoded, and fastify has text/plain built in.
    bodyParser: false,
  });
  // First of its hooks: a request that arrives while the listener drains is refused before anything else runs.
  drainableHttp(app.getHttpAdapter().getInstance(), { perRequest: !off.has('drain') });
  app.useGlobalFilters(new HttpErrorFilter());
  // JSON is the only body the API takes; anything else is refused, not guessed at.
  app.getHttpAdapter().getInstance().removeContentTypeParser(['text/plain']);
  if (!off.has('body-checks')) refuseAmbiguousBodies(app.getHttpAdapter().getInstance());
  return app;
}
