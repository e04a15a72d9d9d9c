import { PixChargeChangedData, PixChargeEventTypes, PixChargePaidData, PixChargeRecordData, pixChargeRecordOf, PixChargeStatus, Tenant } from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// A cash-in Pix charge (platform.md §3): created PENDING by the merchant (POST /v2/pix), then PAID by the payer
// (the sandbox payer, or the bank's notification) or EXPIRED once past expires_at. A journey 3 activation payment
// is recorded straight as PAID (service-api.md 2.1). Every event carries the whole charge after the change.

export type PixChargeEvent =
  | DomainEvent<typeof PixChargeEventTypes.created, PixChargeChangedData>
  /** Also the version 1 payload of the first activation deposits (ActivationPaidDataV1), still read. */
  | DomainEvent<typeof PixChargeEventTypes.paid, PixChargePaidData>
  | DomainEvent<typeof PixChargeEventTypes.expired, PixChargeChangedData>;

export type PixChargeState = { status: 'NONE' } | { status: PixChargeStatus; charge: PixChargeRecordData };

/** A payment the bank reports: when it settled and its end-to-end id. */
export interface PixPayment {
  paid_at: string;
  e2e_id: string | null;
}

export type PixChargeCommand =
  | { type: 'CreatePixCharge'; charge: PixChargeRecordData }
  /** The sandbox payer is about to pay (platform.md §4): refused, before the bank hears of it, unless PENDING. */
  | { type: 'CheckPayable' }
  | { type: 'RecordPayment'; payment: PixPayment }
  | { type: 'ExpirePixCharge' }
  /** A journey 3 activation, paid with the payer's authorization. */
  | { type: 'RecordPaidDeposit'; charge: PixChargeRecordData };

export const PIX_CHARGE_STREAM = 'pix_charge';
/** Keyed by transaction_id, unique per tenant: a second charge with the same one lands on the same stream and is refused. */
export const pixChargeStreamId = (tenant: Tenant, transactionId: string): string =>
  `${PIX_CHARGE_STREAM}:${tenant.accountId}:${tenant.environment}:${transactionId}`;

export const pixCharge: Decider<PixChargeCommand, PixChargeEvent, PixChargeState> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreatePixCharge':
        return state.status === 'NONE'
          ? accept({ type: PixChargeEventTypes.created, data: { charge: { ...command.charge, status: 'PENDING' } } })
          : reject(validation(Messages.transactions.transactionIdTaken));
      case 'CheckPayable':
        if (state.status === 'NONE') return reject(notFound(Messages.payments.notFound));
        return state.status === 'PENDING' ? accept() : reject(validation(Messages.payments.notPayable(state.status)));
      case 'RecordPayment':
        if (state.status === 'NONE') return reject(notFound(Messages.payments.notFound));
        // Paid once: the sandbox's answer and the bank's notification of the same payment are one event. Money
        // that reached an EXPIRED charge (the payer paid as it expired) is a payment all the same.
        if (state.status === 'PAID') return accept();
        return accept({
          type: PixChargeEventTypes.paid,
          data: { charge: { ...state.charge, status: 'PAID', paid_at: command.payment.paid_at, e2e_id: command.payment.e2e_id, pix_copy_paste: null } },
        });
      case 'ExpirePixCharge':
        if (state.status === 'NONE') return reject(notFound(Messages.payments.notFound));
        return state.status === 'PENDING' ? accept({ type: PixChargeEventTypes.expired, data: { charge: { ...state.charge, status: 'EXPIRED', pix_copy_paste: null } } }) : accept();
      case 'RecordPaidDeposit':
        // A redelivered approval records nothing more.
        return state.status === 'NONE' ? accept({ type: PixChargeEventTypes.paid, data: { charge: { ...command.charge, status: 'PAID', pix_copy_paste: null } } }) : accept();
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case PixChargeEventTypes.created:
      case PixChargeEventTypes.expired:
        return { status: event.data.charge.status, charge: event.data.charge };
      case PixChargeEventTypes.paid: {
        const charge = pixChargeRecordOf(event.data);
        return { status: charge.status, charge };
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};
