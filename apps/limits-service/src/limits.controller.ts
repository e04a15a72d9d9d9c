import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  GetLimitQuery,
  Patterns,
  reply,
  ServiceReply,
  ServiceRequest,
  SET_LIMIT_FIELDS,
  SetLimitRequest,
  Topics,
  validateBody,
  validateQuery,
} from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import {
  CUSTOMER_LIMIT_STREAM,
  customerLimit,
  customerLimitStreamId,
  documentDigest,
  findCustomerLimit,
  limitResponse,
  projectCustomerLimit,
} from '@pixauto/limits';
import { Clock, reaisToCentavos } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';

/** Keys the customer's document into its limit's stream id (no CPF in stream ids or Kafka keys). */
export const DOCUMENT_KEY = Symbol('DOCUMENT_KEY');

/** POST and GET /v2/limits behind the gateway. */
@Controller()
export class LimitsController {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DOCUMENT_KEY) private readonly documentKey: Buffer,
  ) {}

  @MessagePattern(Patterns.limits.set)
  async set(@Payload() { tenant, body }: ServiceRequest): Promise<ServiceReply> {
    const request = validateBody(SetLimitRequest, body, SET_LIMIT_FIELDS);
    if (!request.ok) return refuse(request.refusal);
    const { document_number, type, mechanism, amount, quantity, details } = request.value;
    const outcome = await this.eventStore.handle(
      customerLimit,
      {
        type: 'SetCustomerLimit',
        data: {
          document_number,
          limit_type: type,
          mechanism,
          amount_centavos: mechanism === 'amount' ? (reaisToCentavos(amount) ?? null) : null,
          quantity: mechanism === 'quantity' ? (quantity ?? null) : null,
          details: details ?? null,
        },
      },
      {
        streamId: customerLimitStreamId(tenant, documentDigest(this.documentKey, document_number), type),
        streamType: CUSTOMER_LIMIT_STREAM,
        tenant,
        now: this.clock.now(tenant),
        topic: Topics.limits.name,
        project: projectCustomerLimit,
      },
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    // Answered from the command's outcome: the same values the read model now holds, without reading it back.
    const { state, history, events } = outcome;
    if (state.status !== 'configured') throw new Error('a set limit must be configured');
    const stream = [...history, ...events];
    return reply(limitResponse(state.limit, stream[0].occurredAt, stream[stream.length - 1].occurredAt));
  }

  @MessagePattern(Patterns.limits.get)
  async get(@Payload() { tenant, query }: ServiceRequest): Promise<ServiceReply> {
    const request = validateQuery(GetLimitQuery, query);
    if (!request.ok) return refuse(request.refusal);
    const { document_number, type } = request.value;
    const limit = await findCustomerLimit(this.dataSource.manager, tenant, document_number, type);
    return limit ? reply(limit) : refuse(notFound(Messages.limits.notFound));
  }
}
