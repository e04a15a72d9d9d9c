import type { Readable } from 'node:stream';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { Tenant } from '@pixauto/contracts';
import { Messages, rateLimited, refuse, unavailable } from '@pixauto/errors';
import { Period, periodCsvCopy } from '@pixauto/payout-query';

/** How many exports may run at once, and how long one may wait on its reader (docs/decisions/payout-lookups.md). */
export interface PayoutExportLimits {
  /** Connections of the exports' own pool: as many exports run at once in this process. */
  poolSize: number;
  /** Exports one account (both environments) runs at once in this process. */
  perAccount: number;
  /** An export whose reader has taken nothing for this long is ended and its connection closed. */
  stallMs: number;
}

/** Retry-After of a refused export: an export takes seconds, a stalled one at most its stall bound. */
const RETRY_AFTER_SECONDS = 5;

/**
 * GET /v2/withdrawals/period/csv: PostgreSQL's COPY output streamed to the HTTP answer with backpressure, so a
 * million rows pass with flat memory. Exports run on a small pool of their own, never the lookups': however many
 * exports stall, the lookups keep their connections. One account runs at most `perAccount` at once (429), the
 * process at most `poolSize` (503), both with Retry-After and at once, never a wait. An export whose reader takes
 * nothing for `stallMs` is ended. The connection goes back to the pool once the copy ended, and is closed instead if
 * the copy was cut short (a merchant who hung up, a stalled reader): a half-read COPY must not be reused.
 */
export class PayoutCsvExport implements OnApplicationShutdown {
  private readonly logger = new Logger('PayoutCsvExport');
  private running = 0;
  private readonly runningByAccount = new Map<string, number>();
  private readonly copies = new Set<Readable>();

  constructor(
    private readonly pool: Pool,
    private readonly limits: PayoutExportLimits,
  ) {
    // An idle connection the server closed: the pool drops it and opens another when asked.
    pool.on('error', (error) => this.logger.warn(`CSV export pool: ${String(error)}`));
  }

  async send(tenant: Tenant, period: Period, response: FastifyReply): Promise<void> {
    const mine = this.runningByAccount.get(tenant.accountId) ?? 0;
    if (mine >= this.limits.perAccount) return refuse(rateLimited(Messages.withdrawals.exportsPerAccount(this.limits.perAccount), RETRY_AFTER_SECONDS));
    if (this.running >= this.limits.poolSize) return refuse(unavailable(Messages.withdrawals.exportsBusy, RETRY_AFTER_SECONDS));
    this.count(tenant.accountId, +1);
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      this.count(tenant.accountId, -1);
      this.logger.warn(`CSV export refused, no database connection: ${String(error)}`);
      return refuse(unavailable(Messages.request.serviceUnavailable));
    }
    const rows = client.query(copyTo(periodCsvCopy(tenant, period, (value) => client.escapeLiteral(value))));
    let ended = false;
    const stopWatching = this.watchReader(response, () => {
      this.logger.warn(`CSV export ended: its reader took nothing for ${this.limits.stallMs} ms`);
      rows.destroy();
      response.raw.destroy();
    });
    this.copies.add(rows);
    rows.once('end', () => (ended = true));
    rows.once('close', () => {
      this.copies.delete(rows);
      stopWatching();
      this.count(tenant.accountId, -1);
      client.release(ended ? undefined : new Error('CSV export cut short'));
    });
    rows.once('error', (error) => this.logger.warn(`CSV export failed: ${String(error)}`));
    response.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="withdrawals.csv"');
    await response.send(rows);
  }

  /**
   * Calls `stalled` once the answer has waited on its reader (its buffer full, no drain) for `stallMs`, checked four
   * times per bound: a reader that keeps taking, however slowly, is never cut.
   */
  private watchReader(response: FastifyReply, stalled: () => void): () => void {
    const raw = response.raw;
    let waitingSince: number | undefined;
    const drained = () => (waitingSince = undefined);
    raw.on('drain', drained);
    const timer = setInterval(
      () => {
        if (!raw.writableNeedDrain) return void (waitingSince = undefined);
        waitingSince ??= performance.now();
        if (performance.now() - waitingSince >= this.limits.stallMs) {
          stop();
          stalled();
        }
      },
      Math.max(10, this.limits.stallMs / 4),
    );
    timer.unref();
    const stop = () => {
      clearInterval(timer);
      raw.off('drain', drained);
    };
    return stop;
  }

  private count(accountId: string, delta: number): void {
    this.running += delta;
    const mine = (this.runningByAccount.get(accountId) ?? 0) + delta;
    if (mine > 0) this.runningByAccount.set(accountId, mine);
    else this.runningByAccount.delete(accountId);
  }

  /** Exports still running when the process stops are cut (their connections closed), so the pool can end. */
  async onApplicationShutdown(): Promise<void> {
    for (const rows of this.copies) rows.destroy();
    await this.pool.end();
  }
}
