import path from 'node:path';
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

export const ADMIN_TOKEN = 'e2e-admin-token';

/**
 * How long a test waits for what the running system does "within seconds" (an event followed, a read model caught up,
 * a webhook sent): well past those seconds, for a loaded machine. The options of eventually and until (@pixauto/testing).
 */
export const WITHIN_SECONDS = { timeoutMs: 20_000, intervalMs: 200 };

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const launcher = require('../../../../deploy/scripts/system.cjs') as { startSystem: (options: object) => Promise<RunningSystem> };

/**
 * The same process launcher as `npm start` (deploy/scripts/system.cjs), on the e2e ports and databases
 * (E2E_PROFILE picks another profile of system.cjs, to run beside a suite already using them; E2E_REPLICAS runs that
 * many of every app but the bank simulator, as `npm start -- --replicas N`). `appEnv` adds to an app's environment
 * (a test's preload), not to its settings.
 */
export const startSystem = (options: { appEnv?: Record<string, Record<string, string>> } = {}): Promise<RunningSystem> =>
  launcher.startSystem({
    profile: process.env.E2E_PROFILE ?? 'e2e',
    adminToken: ADMIN_TOKEN,
    everyAppEnv: { NODE_OPTIONS: LOOPBACK_ONLY },
    appEnv: options.appEnv ?? {},
    replicas: Number(process.env.E2E_REPLICAS ?? 1),
  });

/** Every app runs with the loopback-only preload (support/loopback-only.cjs): nothing a test starts reaches beyond loopback. */
export const LOOPBACK_ONLY = `--require ${path.join(__dirname, 'loopback-only.cjs')}`;
