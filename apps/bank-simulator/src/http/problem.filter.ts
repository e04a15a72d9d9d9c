import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Problema } from '@pixauto/bank';
import { ProblemException, Problems } from '../domain/problems';

/** Anything thrown, as the BCB API answers it: a Problema in application/problem+json. */
export function problemOf(error: unknown): Problema {
  if (error instanceof ProblemException) return error.problem;
  if (!(error instanceof HttpException)) return Problems.internal();
  // Fastify's own refusals (routing, body parsing) reach here as HttpExceptions carrying fastify's status.
  switch (error.getStatus()) {
    case 400:
      return Problems.invalidRequest('O corpo da requisição não é um JSON válido.');
    case 404:
      return Problems.notFound();
    case 413:
      return Problems.invalidRequest('O corpo da requisição é grande demais.');
    case 415:
      return Problems.invalidRequest('O corpo da requisição deve ser application/json.');
    default:
      return Problems.internal();
  }
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const problem = problemOf(error);
    if (problem.status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    host.switchToHttp().getResponse<FastifyReply>().status(problem.status).header('content-type', 'application/problem+json').send(JSON.stringify(problem));
  }
}
