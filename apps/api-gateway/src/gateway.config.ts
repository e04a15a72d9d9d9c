import { serviceConfig } from '@pixauto/runtime';

/** The gateway's settings (platform.md §1); docs/operations.md lists every variable. */
export const gatewayConfig = (env: NodeJS.ProcessEnv = process.env) => ({
  ...serviceConfig('gateway', 3000, env),
  sandboxPort: Number(env.SANDBOX_PORT ?? 3001),
  adminPort: Number(env.ADMIN_PORT ?? 3002),
  /** The admin listener is off when no token is set. */
  adminToken: env.ADMIN_TOKEN || undefined,
  /** host:port of each service's TCP listener. */
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
});

export type GatewayConfig = ReturnType<typeof gatewayConfig>;
export type UpstreamName = keyof GatewayConfig['upstreams'];
