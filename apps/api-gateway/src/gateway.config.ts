import { serviceConfig } from '@pixauto/runtime';
import { hooksOffOf } from './hooks';

/** REQUEST_LOG_RETENTION_DAYS: a whole number of days from 1 to 90, 7 when unset; anything else stops the start. */
function retentionDaysOf(value: string | undefined): number {
  if (value === undefined || value === '') return 7;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new Error(`REQUEST_LOG_RETENTION_DAYS must be a whole number of days from 1 to 90, not ${value}`);
  return days;
}

/** The gateway's settings; docs/operations.md lists every variable. */
export const gatewayConfig = (env: NodeJS.ProcessEnv = process.env) => {
  const base = serviceConfig('gateway', 3000, env);
  /** Set in a process the supervisor started (processes.ts): which one it is. */
  const processIndex = env.GATEWAY_PROCESS_INDEX === undefined ? undefined : Number(env.GATEWAY_PROCESS_INDEX);
  return {
    ...base,
    /** Each process of the gateway has its own ops listener: OPS_PORT for the first, the next ports for the others. */
    opsPort: base.opsPort + (processIndex ?? 0),
    /** Processes serving the same ports (SO_REUSEPORT); more than 1 makes this process their supervisor. */
    processes: Number(env.GATEWAY_PROCESSES ?? 1),
    processIndex,
    sandboxPort: Number(env.SANDBOX_PORT ?? 3001),
    adminPort: Number(env.ADMIN_PORT ?? 3002),
    /** The admin listener is off when no token is set. */
    adminToken: env.ADMIN_TOKEN || undefined,
    /**
     * Each service's TCP listeners: `host:port`, a list of them (`a:4005,b:4005`), or a DNS name whose every address is a
     * replica (a headless Service), resolved again every 5 s; each request goes to one replica (ServiceClient).
     */
    upstreams: {
      limits: env.LIMITS_SERVICE_ADDRESS ?? '127.0.0.1:4005',
      recurrences: env.RECURRENCE_SERVICE_ADDRESS ?? '127.0.0.1:4001',
      solicitations: env.SOLICITATION_SERVICE_ADDRESS ?? '127.0.0.1:4002',
      payments: env.PAYMENTS_SERVICE_ADDRESS ?? '127.0.0.1:4007',
      payoutQuery: env.PAYOUT_QUERY_SERVICE_ADDRESS ?? '127.0.0.1:4008',
      webhooks: env.WEBHOOK_DISPATCHER_ADDRESS ?? '127.0.0.1:4009',
      receipts: env.RECEIPT_SERVICE_ADDRESS ?? '127.0.0.1:4011',
    },
    /**
     * Requests one gateway process has waiting on one service at once; beyond, 503 at once
     * (docs/decisions/overload-and-outages.md "Overload").
     */
    upstreamMaxInFlight: Number(env.UPSTREAM_MAX_IN_FLIGHT ?? 256),
    /** payout-query-service's HTTP listener, which the CSV export streams from. */
    payoutQueryCsvUrl: env.PAYOUT_QUERY_CSV_URL ?? 'http://127.0.0.1:4108',
    /** How many days of an account's API requests the console's request log keeps (docs/decisions/request-log.md). */
    requestLogRetentionDays: retentionDaysOf(env.REQUEST_LOG_RETENTION_DAYS),
    /** The merchant console's address as its users reach it (the console server's, behind TLS in production): sign-in links open it. */
    consolePublicUrl: env.CONSOLE_PUBLIC_URL ?? 'http://127.0.0.1:3003',
    /**
     * Console password hashes one gateway process runs at once (128 MiB each, beside the merchant API's memory); one
     * more is answered 503 with Retry-After (docs/decisions/console.md).
     */
    passwordHashesAtOnce: Number(env.PASSWORD_HASHES_AT_ONCE ?? 2),
    /** Per-request hooks left out, for the bench alone (hooks.ts): refused at start anywhere else. */
    hooksOff: hooksOffOf(env),
  };
};

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
export type UpstreamName = keyof GatewayConfig['upstreams'];
