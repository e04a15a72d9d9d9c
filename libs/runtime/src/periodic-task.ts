import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { SchedulerOutcome, schedulerRuns } from '@pixauto/metrics';

/**
 * Runs a task again and again, a pause between runs (never two at once), until stopped. A task that resolves to
 * true has more waiting (a full page) and runs again at once. What it works on is
 * in the database, so a restart picks up where the last run left off: nothing lives only in a timer.
 * Registered as a Nest provider (useFactory), it starts with the application and stops first when it closes
 * (onModuleDestroy: before the outbox is flushed and the pools close).
 */
export class PeriodicTask implements OnApplicationBootstrap, OnModuleDestroy {
  private running = false;
  private loop?: Promise<void>;
  /** Ends the pause between runs when the task stops: a shutdown waits for a run under way, not for a pause. */
  private pause = new AbortController();
  private readonly logger: Logger;

  constructor(
    private readonly name: string,
    private readonly everyMs: number,
    private readonly task: () => Promise<unknown>,
  ) {
    this.logger = new Logger(name);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const observe = (outcome: SchedulerOutcome) => schedulerRuns.observe({ task: this.name, outcome }, (performance.now() - started) / 1000);
        const more = await this.task().then(
          (result) => {
            observe(result === true ? 'more' : 'done');
            return result;
          },
          (error: unknown) => {
            observe('failed');
            this.logger.warn(`${this.name} failed, will run again: ${String(error)}`);
          },
        );
        if (more !== true) await sleep(this.everyMs, undefined, { signal: this.pause.signal }).catch(() => undefined);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.pause.abort();
    await this.loop;
    this.pause = new AbortController();
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }
}
