import { Module } from '@nestjs/common';
import { Topics } from '@pixauto/contracts';
import { CustomerLimitsReadModel1763800000100 } from '@pixauto/limits';
import { EventSourcingModule, serviceConfig } from '@pixauto/runtime';
import { LimitsController } from './limits.controller';

export const config = serviceConfig('limits-service', 4005);

@Module({
  imports: [EventSourcingModule.forService({ config, migrations: [CustomerLimitsReadModel1763800000100], topics: [Topics.limits] })],
  controllers: [LimitsController],
})
export class LimitsModule {}
