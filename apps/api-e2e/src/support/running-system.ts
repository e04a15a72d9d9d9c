/** Each app's ops listener: /health/live, /health/ready, /metrics. */
export interface OpsPorts {
  gatewayOps: number;
  recurrencesOps: number;
  solicitationsOps: number;
  limitsOps: number;
  paymentsOps: number;
  payoutQueryOps: number;
  webhooksOps: number;
  receiptsOps: number;
}

export interface RunningSystem {
  profile: {
    gateway: number;
    sandbox: number;
    admin: number;
    limits: number;
    recurrences: number;
    solicitations: number;
    payments: number;
    payoutQuery: number;
    payoutQueryHttp: number;
    bank: number;
    databasePrefix: string;
    redisDb: number;
  } & OpsPorts;
  pidOf(name: string): number | undefined;
  crash(name: string): Promise<void>;
  /** SIGTERM, as an orchestrator stops an app: its exit code and how long it took, once it has exited. */
  terminate(name: string): Promise<{ exitCode: number | null; ms: number }>;
  restart(name: string): Promise<void>;
  /**
   * A second instance of an app on other ports, e.g. a second recurrence-service (scheduler) on the same database:
   * `port` is its PORT; its ops listener is on `port` + 50 unless `env` names OPS_PORT.
   */
  startReplica(name: string, env: Record<string, string>, port: number): Promise<void>;
  stop(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, shared with the suite's Jest environment
const e2e = require('./e2e-system.cjs') as {
  ADMIN_TOKEN: string;
  LOOPBACK_ONLY: string;
  startE2eSystem: (options: { appEnv?: Record<string, Record<string, string>> }) => Promise<RunningSystem>;
};

export const { ADMIN_TOKEN, LOOPBACK_ONLY } = e2e;

/**
 * How long a test waits for what the running system does "within seconds" (an event followed, a read model caught up,
 * a webhook sent): well past those seconds, for a loaded machine. The options of eventually and until (@pixauto/testing).
 */
export const WITHIN_SECONDS = { timeoutMs: 20_000, intervalMs: 200 };

/**
 * A system of this file's own, started as `npm start` starts one (support/e2e-system.cjs: the e2e profile, or
 * E2E_PROFILE and E2E_REPLICAS), for a file that needs settings of its own or stops apps for good; the file stops it.
 * `appEnv` adds to an app's environment (a test's preload), not to its settings.
 */
export const startSystem = (options: { appEnv?: Record<string, Record<string, string>> } = {}): Promise<RunningSystem> => e2e.startE2eSystem(options);

declare global {
  var e2eSharedSystem: RunningSystem | undefined;
}

/**
 * The suite's one shared system, for a file whose docblock says `@shared-system` (support/e2e-environment.cjs starts
 * it before the first such file and stops it after the last). The file must leave it as it found it: an app it
 * crashes or stops, it restarts.
 */
export function sharedSystem(): RunningSystem {
  if (!globalThis.e2eSharedSystem) throw new Error('no shared system: this file needs `/** @shared-system */` as its first lines');
  return globalThis.e2eSharedSystem;
}
