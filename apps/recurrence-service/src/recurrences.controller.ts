import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { sandboxTenantOf } from '@pixauto/runtime';
import { Recurrences } from './recurrences';

const idOf = (request: ServiceRequest): string => request.params?.recurrence_id ?? '';

/** The recurrence routes and the sandbox payer's, behind the gateway. */
@Controller()
export class RecurrencesController {
  constructor(private readonly recurrences: Recurrences) {}

  @MessagePattern(Patterns.recurrences.create)
  async create(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.create(request.tenant, request.account, request.body), 201);
  }

  @MessagePattern(Patterns.recurrences.get)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.get(request.tenant, idOf(request)));
  }

  @MessagePattern(Patterns.recurrences.list)
  async list(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.list(request.tenant, request.query));
  }

  @MessagePattern(Patterns.recurrences.update)
  async update(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.update(request.tenant, idOf(request), request.body));
  }

  @MessagePattern(Patterns.recurrences.sandboxAuthorize)
  async authorize(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.payerAnswers(sandboxTenantOf(request), idOf(request), 'authorize'));
  }

  @MessagePattern(Patterns.recurrences.sandboxReject)
  async reject(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.recurrences.payerAnswers(sandboxTenantOf(request), idOf(request), 'reject'));
  }
}
