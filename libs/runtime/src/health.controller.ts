import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Ready when the service's database answers (the start and test scripts wait for it). */
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  async health(): Promise<{ status: 'ok' }> {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok' };
  }
}
