import { Module } from '@nestjs/common';
import { Topics } from '@pixauto/contracts';
import { customerLimitStreamsKeyed, CustomerLimitsReadModel1763800000100, documentKeyOf } from '@pixauto/limits';
import { EventSourcingModule, serviceConfig } from '@pixauto/runtime';
import { DOCUMENT_KEY, LimitsController } from './limits.controller';

export const config = serviceConfig('limits-service', 4005);
const documentKey = documentKeyOf();

@Module({
  imports: [
    EventSourcingModule.forService({
      config,
      migrations: [CustomerLimitsReadModel1763800000100, customerLimitStreamsKeyed(documentKey)],
      topics: [Topics.limits],
    }),
  ],
  controllers: [LimitsController],
  providers: [{ provide: DOCUMENT_KEY, useValue: documentKey }],
})
export class LimitsModule {}
