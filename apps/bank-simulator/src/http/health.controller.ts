import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Ready when the simulator's database answers (start scripts wait for it). */
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  async health(): Promise<{ status: 'ok' }> {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok' };
  }
}
