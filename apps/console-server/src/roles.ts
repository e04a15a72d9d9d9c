import type { ConsoleRole, Environment } from '@pixauto/contracts';

/** What a console user may do (the console's roles): reading is everyone's; acting depends on the role and the environment. */
export function mayAct(role: ConsoleRole, environment: Environment): boolean {
  switch (role) {
    case 'owner':
      return true;
    case 'developer':
      return environment === 'sandbox';
    case 'viewer':
      return false;
    default: {
      const unknown: never = role;
      throw new Error(`unknown role ${String(unknown)}`);
    }
  }
}

/** Methods that only read: allowed to every role in both environments. */
export const isRead = (method: string): boolean => method === 'GET' || method === 'HEAD';
