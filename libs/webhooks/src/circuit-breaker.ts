// Per-endpoint circuit breaker (Convoy's idea): an endpoint that is down (refused connections, timeouts) is left
// alone for a while instead of spending its deliveries' attempts on it. Deliveries due meanwhile are deferred, not
// failed. An endpoint that answers, even with an error, is up: its answers go through the retry schedule.

export interface CircuitBreakerOptions {
  /** Consecutive "down" failures that open the circuit. */
  failureThreshold: number;
  /** How long it stays open the first time; doubled at each failed trial, up to maxCooldownMs. */
  cooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_CIRCUIT_BREAKER: CircuitBreakerOptions = { failureThreshold: 5, cooldownMs: 30_000, maxCooldownMs: 10 * 60_000 };

interface EndpointHealth {
  failures: number;
  openUntil: number;
  cooldownMs: number;
  /** Half-open: one trial request is out; the others wait for its outcome. */
  trialInFlight: boolean;
}

export type Admission = { admitted: true } | { admitted: false; retryAtMs: number };

export class CircuitBreaker {
  private readonly endpoints = new Map<string, EndpointHealth>();

  constructor(private readonly options: CircuitBreakerOptions = DEFAULT_CIRCUIT_BREAKER) {}

  /** Whether a request to `endpoint` may go now (real time in ms); when not, when to try again. */
  admit(endpoint: string, nowMs: number): Admission {
    const health = this.endpoints.get(endpoint);
    if (!health || health.failures < this.options.failureThreshold) return { admitted: true };
    if (nowMs < health.openUntil) return { admitted: false, retryAtMs: health.openUntil };
    if (health.trialInFlight) return { admitted: false, retryAtMs: nowMs + 1000 };
    health.trialInFlight = true;
    return { admitted: true };
  }

  succeeded(endpoint: string): void {
    this.endpoints.delete(endpoint);
  }

  /** An attempt that found the endpoint down (no answer at all). */
  wentDown(endpoint: string, nowMs: number): void {
    const health = this.endpoints.get(endpoint) ?? { failures: 0, openUntil: 0, cooldownMs: 0, trialInFlight: false };
    const wasTrial = health.trialInFlight;
    health.failures += 1;
    health.trialInFlight = false;
    if (health.failures >= this.options.failureThreshold) {
      health.cooldownMs = wasTrial ? Math.min(health.cooldownMs * 2, this.options.maxCooldownMs) : this.options.cooldownMs;
      health.openUntil = nowMs + health.cooldownMs;
    }
    this.endpoints.set(endpoint, health);
  }

  /** An attempt that got an answer, whatever its status: the endpoint is up. */
  answered(endpoint: string): void {
    this.succeeded(endpoint);
  }

  isOpen(endpoint: string, nowMs: number): boolean {
    const health = this.endpoints.get(endpoint);
    return health !== undefined && health.failures >= this.options.failureThreshold && nowMs < health.openUntil;
  }
}
