import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GetLimitQuery, LimitResponse, SET_LIMIT_FIELDS, SetLimitRequest, Tenant, Topics, validateBody, validateQuery } from '@pixauto/contracts';
import { Messages, notFound, refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { CUSTOMER_LIMIT_STREAM, customerLimit, customerLimitStreamId, findCustomerLimit, projectCustomerLimit } from '@pixauto/limits';
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
    return this.read(tenant, document_number, type);
  }

  @Get()
  async get(@CurrentTenant() tenant: Tenant, @Query() query: unknown): Promise<LimitResponse> {
    const request = validateQuery(GetLimitQuery, query);
    if (!request.ok) return refuse(request.refusal);
    return this.read(tenant, request.value.document_number, request.value.type);
  }

  private async read(tenant: Tenant, documentNumber: string, limitType: string): Promise<LimitResponse> {
    return (await findCustomerLimit(this.dataSource.manager, tenant, documentNumber, limitType)) ?? refuse(notFound(Messages.limits.notFound));
  }
}
