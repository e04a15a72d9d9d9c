import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { Tenant } from '@pixauto/contracts';
import { Period, periodCsvCopy } from '@pixauto/payout-query';

/**
 * GET /v2/withdrawals/period/csv: PostgreSQL's COPY output streamed to the HTTP answer with backpressure, so a
 * million rows pass with flat memory. The connection goes back to the pool once the copy ended, and is closed
 * instead if the copy was cut short (a merchant who hung up): a half-read COPY must not be reused.
 */
@Injectable()
export class PayoutCsvExport {
  private readonly logger = new Logger('PayoutCsvExport');

  constructor(private readonly dataSource: DataSource) {}

  async send(tenant: Tenant, period: Period, response: FastifyReply): Promise<void> {
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const client: PoolClient = await pool.connect();
    const rows = client.query(copyTo(periodCsvCopy(tenant, period, (value) => client.escapeLiteral(value))));
    let ended = false;
    rows.once('end', () => (ended = true));
    rows.once('close', () => client.release(ended ? undefined : new Error('CSV export cut short')));
    rows.once('error', (error) => this.logger.warn(`CSV export failed: ${String(error)}`));
    response.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="withdrawals.csv"');
    await response.send(rows);
  }
}
