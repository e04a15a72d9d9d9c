import { Logger } from '@nestjs/common';

export interface SweepSchedule {
  everyMs: number;
  /** Most items one batch handles. */
  batchSize: number;
  /** Most batches one run takes (another only while the last one was full): the rest waits for the next run. */
  maxBatchesPerRun: number;
}

/**
 * Applies, run after run, the work that has fallen due (solicitation steps, recurring charges' scheduled attempts).
 * The work to do is read from the database on every run (an indexed due column), so a restart simply resumes it.
 * Runs outside any request, so on real time: a request's x-simulated-now never reaches it.
 */
export class Sweeper {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly schedule: SweepSchedule,
    /** Handles at most `limit` due items; how many it found. */
    private readonly sweepBatch: (limit: number) => Promise<number>,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return; // one run at a time
      this.running = this.run().finally(() => (this.running = undefined));
    }, this.schedule.everyMs);
  }

  private async run(): Promise<void> {
    const { batchSize, maxBatchesPerRun } = this.schedule;
    try {
      for (let batch = 0; batch < maxBatchesPerRun; batch++) {
        if ((await this.sweepBatch(batchSize)) < batchSize) break; // a full batch: more may be due
      }
    } catch (error) {
      this.logger.warn(`${this.name} run failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
