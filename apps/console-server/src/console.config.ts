import path from 'node:path';
import { serviceConfig } from '@pixauto/runtime';

/** The console server's settings; docs/operations.md lists every variable. */
export const consoleConfig = (env: NodeJS.ProcessEnv = process.env) => {
  const base = serviceConfig('console', 3003, env);
  return {
    ...base,
    /** Its port + 51 (3054): + 50 is the gateway's fourth process's ops listener (3053). */
    opsPort: Number(env.OPS_PORT ?? base.port + 51),
    /** The gateway's listeners: the merchant API the console calls for its users, and the admin API it signs them in with. */
    productionApiUrl: env.CONSOLE_PRODUCTION_API_URL ?? 'http://127.0.0.1:3000',
    sandboxApiUrl: env.CONSOLE_SANDBOX_API_URL ?? 'http://127.0.0.1:3001',
    adminApiUrl: env.CONSOLE_ADMIN_API_URL ?? 'http://127.0.0.1:3002',
    /** The operator token: the console signs users in and issues its own API keys with it, server-side only. */
    adminToken: env.ADMIN_TOKEN ?? '',
    /** A session ends this long after its last request. */
    sessionIdleSeconds: Number(env.CONSOLE_SESSION_IDLE_SECONDS ?? 30 * 60),
    /** ...and this long after sign-in, however active. */
    sessionMaxSeconds: Number(env.CONSOLE_SESSION_MAX_SECONDS ?? 12 * 60 * 60),
    /** Served over TLS (directly or behind a proxy that terminates it): the cookie is Secure and HSTS is sent. */
    secure: env.CONSOLE_SECURE === 'true',
    /**
     * The proxies in front of the console (an ingress, a load balancer), comma-separated addresses or CIDR ranges: their
     * X-Forwarded-For names the client whose sign-in failures are counted. None by default: the connection's address.
     */
    trustedProxies: (env.CONSOLE_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((proxy) => proxy.trim())
      .filter((proxy) => proxy.length > 0),
    /** The built single-page app (apps/console). */
    staticDir: env.CONSOLE_STATIC_DIR ?? path.resolve(__dirname, '..', '..', 'console'),
  };
};

export type ConsoleConfig = ReturnType<typeof consoleConfig>;
