import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, reply, ServiceReply, ServiceRequest } from '@pixauto/contracts';
import { Payments } from './payments';

/** GET /v2/pix (platform.md §3), behind the gateway. */
@Controller()
export class PaymentsController {
  constructor(private readonly payments: Payments) {}

  @MessagePattern(Patterns.payments.getPixCharge)
  async get(@Payload() request: ServiceRequest): Promise<ServiceReply> {
    return reply(await this.payments.get(request.tenant, request.query));
  }
}
