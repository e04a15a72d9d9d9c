import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { requestLogLines } from '@pixauto/metrics';
import { RequestLogLine } from '@pixauto/contracts';
import { insertRequestLines } from './request-log-store';

/**
 * The gateway's side of the request log: a request's line is kept in memory when it is answered, and written with the
 * others of the last moment in one statement, off the request's path. What a crash loses is that moment's lines (a
 * debugging aid, not a record of money); what the database cannot take is dropped and counted, never queued without
 * bound.
 */
export class RequestLogWriter {
  private pending: RequestLogLine[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly logger = new Logger('RequestLog');

  constructor(
    private readonly db: DataSource,
    private readonly options: { everyMs: number; maxPending: number } = { everyMs: 250, maxPending: 20_000 },
  ) {}

  record(line: RequestLogLine): void {
    if (this.pending.length >= this.options.maxPending) return void requestLogLines.inc({ outcome: 'dropped' });
    this.pending.push(line);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.everyMs);
    this.timer.unref();
  }

  /** Writes what waits; one write at a time, so lines are never written twice or out of turn. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const lines = this.pending;
      if (lines.length === 0) return;
      this.pending = [];
      try {
        await insertRequestLines(this.db.manager, lines);
        requestLogLines.inc({ outcome: 'written' }, lines.length);
      } catch (error) {
        requestLogLines.inc({ outcome: 'dropped' }, lines.length);
        this.logger.warn(`${lines.length} request log lines not written: ${(error as Error).message}`);
      }
    });
    return this.writing;
  }

  /** At shutdown, once the listeners are closed: what is left is written. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
