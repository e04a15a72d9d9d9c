export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome, as a value. */
export const settled = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Calls that arrive together are run together: while one batch runs, the calls made meanwhile wait and go, all at
 * once (at most `max`), as the next. Each caller gets its own outcome; a failure of the whole batch fails each call.
 */
export class Batcher<I, O> {
  private waiting: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<Settled<O>[]>,
    private readonly max: number,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** At the end of this event-loop turn, so that the calls of the same turn join. */
  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.next();
    });
  }

  private async next(): Promise<void> {
    if (this.running || this.waiting.length === 0) return;
    this.running = true;
    const calls = this.waiting.splice(0, this.max);
    try {
      const outcomes = await this.run(calls.map((call) => call.item));
      calls.forEach((call, index) => {
        const outcome = outcomes[index];
        if (outcome.ok) call.resolve(outcome.value);
        else call.reject(outcome.error);
      });
    } catch (error) {
      for (const call of calls) call.reject(error);
    } finally {
      this.running = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }
}
