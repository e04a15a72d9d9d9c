import { AsyncLocalStorage } from 'node:async_hooks';
import { brasiliaDate, Clock, SystemClock } from '@pixauto/pix';

// The instant a request asked to be served at (header x-simulated-now), for everything that request runs.
const requestedNow = new AsyncLocalStorage<Date>();

/**
 * The rest of this execution, and all it starts, at the requested instant (undefined: real time): SimulatedClock.now()
 * is then at least `instant`. Called first thing for every request (simulated-now.hook.ts).
 */
export const enterRequestedNow = (instant: Date | undefined): void => requestedNow.enterWith(instant as Date);

/**
 * The simulator's one clock. Real time; within a request that carries `x-simulated-now`, the later of real time and
 * that instant, so a sandbox tenant whose test clock runs ahead sees every date rule of every endpoint at its own
 * "now", and no request can take the bank back in time. Work outside requests (the sweepers) runs on real time.
 */
export class SimulatedClock implements Clock {
  constructor(private readonly real: Clock = new SystemClock()) {}

  now(): Date {
    const real = this.real.now();
    const requested = requestedNow.getStore();
    return requested !== undefined && requested.getTime() > real.getTime() ? new Date(requested.getTime()) : real;
  }

  today(): string {
    return brasiliaDate(this.now());
  }

  /** Real time, whatever the request asked for: what the sweepers' due columns are compared with. */
  realNow(): Date {
    return this.real.now();
  }
}
