import { Messages, refuse, unavailable } from '@pixauto/errors';

/**
 * At most `capacity` password hashes at once in this process (each scrypt takes 128 MiB): one more is refused at once
 * with 503 and Retry-After, never queued, so a burst of sign-ins can neither hang nor take the memory of the merchant
 * API served by the same process (docs/decisions/console.md).
 */
export class HashSlots {
  private running = 0;
  /** The most hashes that ran at once since this process started (a test reads it). */
  peak = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`password hashes at once must be a positive integer, not ${capacity}`);
  }

  get inUse(): number {
    return this.running;
  }

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.capacity) return refuse(unavailable(Messages.admin.consolePasswordChecksBusy, 1));
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    try {
      return await hash();
    } finally {
      this.running--;
    }
  }
}
