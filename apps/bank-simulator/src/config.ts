import { ServiceConfig, serviceConfig } from '@pixauto/runtime';
import { Receiver } from './domain/records';
import { AlertSchedule } from './domain/solicitation';
import { SweepSchedule } from './sweeper';

/** The simulator's settings (README "Configuration"): the platform's usual ones plus the simulated parties. */
export interface SimulatorConfig extends ServiceConfig {
  /** Host (and port) written in locations, e.g. 127.0.0.1:4010/qr/v2/rec/<id>. */
  publicHost: string;
  receiver: Receiver;
  /** The institution of a payer who authorizes by QR (journeys 2 and 3). */
  payerIspb: string;
  alerts: AlertSchedule;
  /** How often due solicitation steps are applied. */
  sweepEveryMs: number;
  /** How often, and how much at a time, the scheduled attempts of recurring charges due today are settled. */
  recurringChargeSweep: SweepSchedule;
  /** How long after it was asked for a payout is REALIZADO by itself (SIMULATOR_PAYOUT_SETTLE_MS). */
  payoutSettleMs: number;
  /** How often, and how much at a time, payouts whose settlement is due are settled. */
  payoutSweep: SweepSchedule;
  /** How long after it was asked for a refund is DEVOLVIDO by itself (SIMULATOR_REFUND_SETTLE_MS: 60 s). */
  refundSettleMs: number;
  refundSweep: SweepSchedule;
  /** Waits before each retry of a failed webhook delivery; one attempt more than there are waits. */
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
}

export function simulatorConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const base = serviceConfig('bank-simulator', 4010, env);
  return {
    ...base,
    publicHost: env.PUBLIC_HOST ?? `${base.host}:${base.port}`,
    receiver: {
      cnpj: env.SIMULATOR_RECEIVER_CNPJ ?? '11222333000181',
      nome: env.SIMULATOR_RECEIVER_NAME ?? 'PixAuto Pagamentos SA',
      ispb: env.SIMULATOR_ISPB ?? '12345678',
      city: 'SAO PAULO',
      chave: env.SIMULATOR_RECEIVER_KEY ?? '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
    },
    payerIspb: '87654321',
    alerts: { sentAfterMs: 250, receivedAfterMs: 750 },
    sweepEveryMs: 100,
    recurringChargeSweep: { everyMs: 1000, batchSize: 100, maxBatchesPerRun: 10 },
    payoutSettleMs: milliseconds(env.SIMULATOR_PAYOUT_SETTLE_MS, 'SIMULATOR_PAYOUT_SETTLE_MS', 1500),
    payoutSweep: { everyMs: 100, batchSize: 100, maxBatchesPerRun: 10 },
    refundSettleMs: milliseconds(env.SIMULATOR_REFUND_SETTLE_MS, 'SIMULATOR_REFUND_SETTLE_MS', 60_000),
    refundSweep: { everyMs: 500, batchSize: 100, maxBatchesPerRun: 10 },
    webhookRetryDelaysMs: [250, 1000, 4000],
    webhookTimeoutMs: 5000,
  };
}

/** A non-negative whole number of milliseconds from the environment, the default when unset; anything else stops the start. */
function milliseconds(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const ms = Number(value);
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`${name} must be a whole number of milliseconds, not ${JSON.stringify(value)}`);
  return ms;
}
