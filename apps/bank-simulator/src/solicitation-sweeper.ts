import { Logger } from '@nestjs/common';
import { SimulatedBank } from './simulated-bank';

/**
 * Moves solicitations along by themselves (CRIADA → ENVIADA → RECEBIDA, and EXPIRADA past the deadline). The
 * work to do is read from the database on every tick (solicitations.due_at), so a restart simply resumes it.
 */
export class SolicitationSweeper {
  private readonly logger = new Logger('SolicitationSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly bank: SimulatedBank,
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return; // one sweep at a time
      this.running = this.sweep().finally(() => (this.running = undefined));
    }, this.everyMs);
  }

  private async sweep(): Promise<void> {
    try {
      while ((await this.bank.settleDueSolicitations()) === 100); // a full batch: more may be due
    } catch (error) {
      this.logger.warn(`sweep failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
