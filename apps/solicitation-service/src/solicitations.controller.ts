import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { Solicitations } from './solicitations';

const idOf = (request: ServiceRequest): string => request.params?.solicitation_id ?? '';

/** The solicitation routes and the sandbox payer's answer, behind the gateway. */
@Controller()
export class SolicitationsController {
  constructor(private readonly solicitations: Solicitations) {}

  @MessagePattern(Patterns.solicitations.create)
  async create(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.solicitations.create(request.tenant, request.body), 201);
  }

  @MessagePattern(Patterns.solicitations.get)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.solicitations.get(request.tenant, idOf(request)));
  }

  @MessagePattern(Patterns.solicitations.cancel)
  async cancel(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.solicitations.cancel(request.tenant, idOf(request), request.body));
  }

  @MessagePattern(Patterns.solicitations.sandboxAnswer)
  async answer(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    if (request.tenant.environment !== 'sandbox') return refuse(notFound(Messages.request.routeNotFound));
    const decision = (request.body as { decision?: unknown } | undefined)?.decision;
    if (decision !== 'ACCEPT' && decision !== 'REJECT') return refuse(validation(Messages.solicitations.decisionInvalid));
    return reply(await this.solicitations.payerAnswers(request.tenant, idOf(request), decision));
  }
}
