export interface RunningSystem {
  profile: { gateway: number; sandbox: number; admin: number; limits: number; recurrences: number; solicitations: number; bank: number; databasePrefix: string; redisDb: number };
  pidOf(name: string): number | undefined;
  crash(name: string): Promise<void>;
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

export const ADMIN_TOKEN = 'e2e-admin-token';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const launcher = require('../../../../deploy/scripts/system.cjs') as { startSystem: (options: object) => Promise<RunningSystem> };

/** The same process launcher as `npm start` (deploy/scripts/system.cjs), on the e2e ports and databases. */
export const startSystem = (): Promise<RunningSystem> => launcher.startSystem({ profile: 'e2e', adminToken: ADMIN_TOKEN });
