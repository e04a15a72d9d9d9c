import { PixChargeEventTypes, PixChargePaidData, Tenant } from '@pixauto/contracts';
import { accept, Decider, DomainEvent } from '@pixauto/event-store';

// A cash-in Pix charge (platform.md §3). For now: a journey 3 activation, recorded once paid.

export type PixChargeEvent = DomainEvent<typeof PixChargeEventTypes.paid, PixChargePaidData>;

export type PixChargeState = { status: 'NONE' } | { status: 'PAID'; data: PixChargePaidData };

export type PixChargeCommand = { type: 'RecordPaidDeposit'; data: PixChargePaidData };

export const PIX_CHARGE_STREAM = 'pix_charge';
/** Keyed by transaction_id, unique per tenant: recording the same deposit twice is the same stream, and a no-op. */
export const pixChargeStreamId = (tenant: Tenant, transactionId: string): string =>
  `${PIX_CHARGE_STREAM}:${tenant.accountId}:${tenant.environment}:${transactionId}`;

export const pixCharge: Decider<PixChargeCommand, PixChargeEvent, PixChargeState> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'RecordPaidDeposit':
        return state.status === 'NONE' ? accept({ type: PixChargeEventTypes.paid, data: command.data }) : accept();
      default: {
        const unreachable: never = command.type;
        return unreachable;
      }
    }
  },
  evolve: (_state, event) => ({ status: 'PAID', data: event.data }),
};
