import { DisputeRecordData, PixChargeEventTypes, PixChargeRecordData, pixChargeRecordOf, RefundRecordData, Tenant } from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, reject } from '@pixauto/event-store';
import { Centavos, centavosToReais } from '@pixauto/pix';
import {
  concludeDispute,
  defendDispute,
  disputeBlockedCentavos,
  DisputeOutcome,
  disputeReturnedCentavos,
  DisputeToOpen,
  openDispute,
} from './disputes/dispute-rules';
import type { PixChargeEvent, PixChargeState } from './pix-charge-events';

export type { PixChargeEvent, PixChargeState } from './pix-charge-events';

// A cash-in Pix charge (docs/decisions/cash-in.md): created PENDING by the merchant (POST /v2/pix), then PAID by the payer
// (the sandbox payer, or the bank's notification) or EXPIRED once past expires_at. A journey 3 activation payment
// is recorded straight as PAID. Every event carries the whole charge after the change.

/** A refund to ask for: `amount_centavos` undefined means what is left. */
export interface RefundToRequest {
  id: number;
  refund_id: string | null;
  amount_centavos: number | undefined;
  bank_id: string;
  created_at: string;
}

/** What the bank says became of a refund. */
export type RefundOutcome = { status: 'REFUNDED'; rtr_id: string; refunded_at: string } | { status: 'FAILED'; reason: string };

/** A payment the bank reports: when it settled and its end-to-end id. */
export interface PixPayment {
  paid_at: string;
  e2e_id: string | null;
}

export type PixChargeCommand =
  | { type: 'CreatePixCharge'; charge: PixChargeRecordData }
  /** The sandbox payer is about to pay: refused, before the bank hears of it, unless PENDING. */
  | { type: 'CheckPayable' }
  | { type: 'RecordPayment'; payment: PixPayment }
  | { type: 'ExpirePixCharge' }
  /** A journey 3 activation, paid with the payer's authorization. */
  | { type: 'RecordPaidDeposit'; charge: PixChargeRecordData }
  | { type: 'RequestRefund'; refund: RefundToRequest }
  | { type: 'RecordRefundOutcome'; refundId: number; outcome: RefundOutcome }
  /** The bank reports an infraction on the payment. */
  | { type: 'OpenDispute'; dispute: DisputeToOpen }
  | { type: 'DefendDispute'; disputeId: number; defence: NonNullable<DisputeRecordData['defence']> }
  /** The bank concluded the infraction. */
  | { type: 'ConcludeDispute'; infractionId: string; outcome: DisputeOutcome };

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
        return state.status === 'PENDING'
          ? accept({ type: PixChargeEventTypes.expired, data: { charge: { ...state.charge, status: 'EXPIRED', pix_copy_paste: null } } })
          : accept();
      case 'RecordPaidDeposit':
        // A redelivered approval records nothing more.
        return state.status === 'NONE'
          ? accept({ type: PixChargeEventTypes.paid, data: { charge: { ...command.charge, status: 'PAID', pix_copy_paste: null } } })
          : accept();
      case 'RequestRefund':
        return requestRefund(command.refund, state);
      case 'RecordRefundOutcome': {
        if (state.status === 'NONE') return reject(notFound(Messages.refunds.notFound));
        const refund = state.refunds.find((r) => r.id === command.refundId);
        if (!refund) return reject(notFound(Messages.refunds.notFound));
        // The bank's word is final once given: a repeated notification or check records nothing more.
        if (refund.status !== 'PROCESSING') return accept();
        const o = command.outcome;
        return o.status === 'REFUNDED'
          ? accept({
              type: PixChargeEventTypes.refunded,
              data: { charge: state.charge, refund: { ...refund, status: 'REFUNDED', rtr_id: o.rtr_id, refunded_at: o.refunded_at } },
            })
          : accept({
              type: PixChargeEventTypes.refundFailed,
              data: { charge: state.charge, refund: { ...refund, status: 'FAILED', failure_reason: o.reason } },
            });
      }
      case 'OpenDispute':
        return openDispute(command.dispute, state, state.status === 'NONE' ? 0 : refundedCentavos(state.refunds));
      case 'DefendDispute':
        return defendDispute(command.disputeId, command.defence, state);
      case 'ConcludeDispute':
        return concludeDispute(command.infractionId, command.outcome, state);
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    const refunds = state.status === 'NONE' ? [] : state.refunds;
    const disputes = state.status === 'NONE' ? [] : state.disputes;
    switch (event.type) {
      case PixChargeEventTypes.created:
      case PixChargeEventTypes.expired:
        return { status: event.data.charge.status, charge: event.data.charge, refunds, disputes };
      case PixChargeEventTypes.paid: {
        const charge = pixChargeRecordOf(event.data);
        return { status: charge.status, charge, refunds, disputes };
      }
      case PixChargeEventTypes.refundRequested:
      case PixChargeEventTypes.refunded:
      case PixChargeEventTypes.refundFailed: {
        const { charge, refund } = event.data;
        return {
          status: charge.status,
          charge,
          refunds: [...refunds.filter((r) => r.id !== refund.id), refund].sort((a, b) => a.id - b.id),
          disputes,
        };
      }
      case PixChargeEventTypes.disputeOpened:
      case PixChargeEventTypes.disputeDefended:
      case PixChargeEventTypes.disputeReturned:
      case PixChargeEventTypes.disputeRejected: {
        const { charge, dispute } = event.data;
        return { status: charge.status, charge, refunds, disputes: [...disputes.filter((d) => d.id !== dispute.id), dispute].sort((a, b) => a.id - b.id) };
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};

/** What the refunds that did not fail have taken back of the charge. */
export const refundedCentavos = (refunds: readonly RefundRecordData[]): Centavos =>
  refunds.filter((r) => r.status !== 'FAILED').reduce((sum, r) => sum + r.amount_centavos, 0);

/** Only a PAID charge whose payment the bank named, up to what is left of it; a refund_id once per charge (the tenant's uniqueness is the read model's). */
function requestRefund(request: RefundToRequest, state: PixChargeState) {
  if (state.status === 'NONE') return reject<PixChargeEvent>(notFound(Messages.refunds.transactionNotFound));
  if (state.status !== 'PAID') return reject<PixChargeEvent>(validation(Messages.refunds.notPaid(state.status)));
  if (!state.charge.e2e_id) return reject<PixChargeEvent>(validation(Messages.refunds.notTraceable));
  if (request.refund_id !== null && state.refunds.some((r) => r.refund_id === request.refund_id && r.status !== 'FAILED'))
    return reject<PixChargeEvent>(validation(Messages.refunds.refundIdTaken));
  // What a dispute returned is gone, what one in progress holds is not the merchant's to refund.
  const blocked = disputeBlockedCentavos(state.disputes);
  const left = state.charge.amount_centavos - refundedCentavos(state.refunds) - disputeReturnedCentavos(state.disputes) - blocked;
  const tooMuch = () =>
    blocked > 0
      ? Messages.disputes.blocked(centavosToReais(Math.max(0, left)).toFixed(2), centavosToReais(blocked).toFixed(2))
      : Messages.refunds.amountExceeds(centavosToReais(left).toFixed(2));
  if (left <= 0) return reject<PixChargeEvent>(validation(blocked > 0 ? tooMuch() : Messages.refunds.fullyRefunded));
  const amount = request.amount_centavos ?? left;
  if (amount > left) return reject<PixChargeEvent>(validation(tooMuch()));
  const refund: RefundRecordData = {
    id: request.id,
    refund_id: request.refund_id,
    amount_centavos: amount,
    status: 'PROCESSING',
    bank_id: request.bank_id,
    rtr_id: null,
    failure_reason: null,
    created_at: request.created_at,
    refunded_at: null,
  };
  return accept<PixChargeEvent>({ type: PixChargeEventTypes.refundRequested, data: { charge: state.charge, refund } });
}
