import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';

// Test support only: waiting for what a test expects to happen. Every test waits this one way: it asks again until the
// answer is the one expected, and fails naming what it waited for and what it last saw when that never comes. It never
// returns quietly past its time: a test that means "nothing happened" waits for a later thing that must happen (the
// next event, the next attempt) and then checks the absence.

export interface WaitOptions {
  /** How long to keep asking before failing (default 5000 ms). The first read happens whatever the timeout. */
  timeoutMs?: number;
  /** The pause between two reads (default 50 ms). */
  intervalMs?: number;
  /** What is awaited, in the failure's words (default "the condition"). */
  what?: string;
}

const SHOWN_CHARACTERS = 1000;

/** A value as a failure shows it: JSON where it can be (else util.inspect), cut at SHOWN_CHARACTERS. */
export function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a cycle or a BigInt: inspect below
  }
  text ??= inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}… (${text.length} characters)` : text;
}

async function poll<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: WaitOptions, showLast: boolean): Promise<T> {
  const { timeoutMs = 5000, intervalMs = 50, what = 'the condition' } = options;
  const started = performance.now();
  for (;;) {
    const value = await read(); // a read that throws fails the wait at once, with its own error
    if (done(value)) return value;
    const elapsed = performance.now() - started;
    if (elapsed >= timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms${showLast ? `; last read: ${shown(value)}` : ''}`);
    await sleep(Math.min(intervalMs, timeoutMs - elapsed));
  }
}

/**
 * Reads until `done` holds of what was read, and resolves to that value as soon as it does. Past `timeoutMs` it throws
 * an Error naming `what` and the last value read.
 */
export function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: WaitOptions = {}): Promise<T> {
  return poll(read, done, options, true);
}

/** Until `condition` holds; resolves to the milliseconds that took. Past `timeoutMs` it throws an Error naming `what`. */
export async function until(condition: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<number> {
  const started = performance.now();
  await poll(condition, (held) => held, options, false);
  return Math.round(performance.now() - started);
}
