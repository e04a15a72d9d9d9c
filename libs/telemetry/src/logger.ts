import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Level, Logger, LoggerOptions } from 'pino';
import { currentRequest } from './request-context';
import { maskDocuments, redactSecrets } from './redaction';

const LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** LOG_LEVEL, or info. */
export const logLevelOf = (env: NodeJS.ProcessEnv = process.env): Level | 'silent' => {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return level && LEVELS.includes(level) ? (level as Level | 'silent') : 'info';
};

/**
 * The settings of every process's logger: JSON, one line per event, with `service` and, inside a request's work, its
 * `request_id`; secrets and documents redacted (./redaction).
 */
export const loggerOptions = (service: string, env: NodeJS.ProcessEnv = process.env): LoggerOptions => ({
  level: logLevelOf(env),
  base: { service },
  messageKey: 'msg',
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }), log: (object) => redactSecrets(object) },
  // Errors are already plain, masked objects (redactSecrets): pino's own serializer would rename their type.
  serializers: { err: (error: unknown) => error },
  mixin: () => {
    const request = currentRequest();
    // A new object each time: pino merges the line's fields into it.
    return request ? { request_id: request.requestId } : {};
  },
  hooks: {
    // A message is free text (an error's, a library's): a document number in it is masked.
    logMethod(args, method) {
      for (let i = 0; i < args.length; i++) if (typeof args[i] === 'string') args[i] = maskDocuments(args[i] as string);
      method.apply(this, args as Parameters<typeof method>);
    },
  },
});

/** Pretty lines for a person at a terminal, when pino-pretty is installed (a development dependency); JSON otherwise. */
function prettyOnTerminal(): DestinationStream | undefined {
  if (!process.stdout.isTTY) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as (options: object) => DestinationStream;
    return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  } catch {
    return undefined;
  }
}

let root: Logger | undefined;

/** The app this process runs (dist/apps/<app>/src/main.js), for a process that logs before it names itself. */
const appName = (): string => /apps[\\/]([^\\/]+)[\\/]/.exec(process.argv[1] ?? '')?.[1] ?? 'pixauto';

/**
 * The process's logger, created by the first call (the app's name then is `service`). To stdout, asynchronously
 * buffered (pino's sonic-boom): a line costs microseconds and no write blocks a request.
 */
export function rootLogger(service = appName()): Logger {
  if (root) return root;
  const logger = pino(loggerOptions(service), prettyOnTerminal() ?? pino.destination({ sync: false }));
  // Node's own warnings (a deprecation) as JSON lines too, instead of its text on stderr.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ context: 'process', code: (warning as { code?: string }).code, warning: warning.name }, warning.message));
  root = logger;
  // Which runtime each process runs on, first thing in its log (the project runs on Node 24 LTS: package.json engines).
  logger.info({ context: 'process', node: process.version, pid: process.pid }, `running on Node ${process.version}`);
  return root;
}

/** Writes what is buffered: before the process exits. */
export const flushLogs = (): void => root?.flush();

/** For tests: a logger with the process's settings writing to `destination`. */
export const createLogger = (service: string, destination: DestinationStream, env: NodeJS.ProcessEnv = process.env): Logger =>
  pino(loggerOptions(service, env), destination);

/**
 * NestJS's own lines (start-up, errors, the Logger each class makes) through the process's logger. Nest passes the
 * context (the class's name) last, and an error's stack before it.
 */
export class NestLogger implements LoggerService {
  constructor(private readonly logger: Logger = rootLogger()) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params, true);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params, true);
  }

  private write(level: Level, message: unknown, params: unknown[], withStack = false): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    // Nest passes `undefined` for an absent stack.
    const rest = params.filter((param) => param !== undefined && param !== null);
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if (withStack && typeof rest[0] === 'string' && rest[0].includes('\n')) fields.stack = rest.shift();
    if (rest.length > 0) fields.details = rest;
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ ...fields, ...message });
    else this.logger[level](fields, String(message));
  }
}

/** kafkajs's levels (logLevel.ERROR, WARN, INFO, DEBUG) as pino's. */
const KAFKA_LEVELS: Record<number, Level> = { 1: 'error', 2: 'warn', 4: 'info', 5: 'debug' };

/** A kafkajs logCreator: the client's lines in the process's format. */
export const kafkaLogCreator =
  (logger: () => Logger = rootLogger) =>
  () =>
  ({
    namespace,
    level,
    log,
  }: {
    namespace: string;
    level: number;
    log: { message: string; timestamp?: string; logger?: string } & Record<string, unknown>;
  }): void => {
    const { message, timestamp: _timestamp, logger: _logger, ...fields } = log;
    logger()[KAFKA_LEVELS[level] ?? 'info']({ component: 'kafkajs', namespace, ...fields }, message);
  };
