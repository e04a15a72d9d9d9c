import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GetLimitQuery, LimitResponse, SET_LIMIT_FIELDS, SetLimitRequest, Tenant, Topics, validateBody, validateQuery } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { CUSTOMER_LIMIT_STREAM, customerLimit, customerLimitStreamId, findCustomerLimit, limitResponse, projectCustomerLimit } from '@pixauto/limits';
import { Clock, reaisToCentavos } from '@pixauto/pix';
import { CLOCK, CurrentTenant } from '@pixauto/runtime';

/** POST and GET /v2/limits (service-api.md 4.13, 4.14), behind the gateway. */
@Controller('v2/limits')
export class LimitsController {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  async set(@CurrentTenant() tenant: Tenant, @Body() body: unknown): Promise<LimitResponse> {
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
        streamId: customerLimitStreamId(tenant, document_number, type),
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
    return limitResponse(state.limit, stream[0].occurredAt, stream[stream.length - 1].occurredAt);
  }

  @Get()
  async get(@CurrentTenant() tenant: Tenant, @Query() query: unknown): Promise<LimitResponse> {
    const request = validateQuery(GetLimitQuery, query);
    if (!request.ok) return refuse(request.refusal);
    const { document_number, type } = request.value;
    return (await findCustomerLimit(this.dataSource.manager, tenant, document_number, type)) ?? refuse(notFound(Messages.limits.notFound));
  }
}
