import { DisputeRecordData, DisputeReturnData, PixChargeDisputeSummary, PixChargeEventTypes, PixChargeRecordData } from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, reject } from '@pixauto/event-store';
import { Centavos, centavosToReais } from '@pixauto/pix';
import type { PixChargeEvent, PixChargeState } from '../pix-charge-events';

// The rules of a dispute on a Pix the merchant received (docs/decisions/disputes.md). A dispute lives on its payment's
// stream beside the refunds, so that what refunds and disputes take back is one sum judged under one optimistic
// concurrency: a refund racing a MED return can never give back more than was paid.

/** An infraction the bank reports on the payment. */
export interface DisputeToOpen {
  id: number;
  infraction_id: string;
  reason: DisputeRecordData['reason'];
  claimed_centavos: number;
  defence_deadline: string;
  opened_at: string;
}

export type DisputeOutcome = { status: 'RETURNED'; return: DisputeReturnData } | { status: 'REJECTED'; closed_at: string };

type Charged = Exclude<PixChargeState, { status: 'NONE' }>;

const inProgress = (dispute: DisputeRecordData): boolean => dispute.status === 'OPEN' || dispute.status === 'DEFENDED';

/** What disputes returned to the payer. */
export const disputeReturnedCentavos = (disputes: readonly DisputeRecordData[]): Centavos =>
  disputes.reduce((sum, d) => sum + (d.return?.amount_centavos ?? 0), 0);

/** What disputes in progress hold: a refund may not take it. */
export const disputeBlockedCentavos = (disputes: readonly DisputeRecordData[]): Centavos =>
  disputes.filter(inProgress).reduce((sum, d) => sum + d.blocked_centavos, 0);

function summaryOf(dispute: DisputeRecordData, disputes: readonly DisputeRecordData[]): PixChargeDisputeSummary {
  return { id: dispute.id, status: dispute.status, returned_amount: centavosToReais(disputeReturnedCentavos(disputes)) };
}

function changed(type: (typeof PixChargeEventTypes)[keyof typeof PixChargeEventTypes], state: Charged, dispute: DisputeRecordData): PixChargeEvent {
  const disputes = [...state.disputes.filter((d) => d.id !== dispute.id), dispute];
  const charge: PixChargeRecordData = { ...state.charge, dispute: summaryOf(dispute, disputes) };
  return { type, data: { charge, dispute } } as PixChargeEvent;
}

/**
 * A PAID payment, one dispute in progress at a time; the same infraction reported again records nothing. The block is
 * the claim, at most what is left after refunds (not failed) and earlier returns.
 */
export function openDispute(request: DisputeToOpen, state: PixChargeState, refundedCentavos: Centavos) {
  if (state.status === 'NONE') return reject<PixChargeEvent>(notFound(Messages.refunds.transactionNotFound));
  if (state.disputes.some((d) => d.infraction_id === request.infraction_id)) return accept<PixChargeEvent>();
  if (state.status !== 'PAID') return reject<PixChargeEvent>(validation(Messages.disputes.notPaid(state.status)));
  if (state.disputes.some(inProgress)) return reject<PixChargeEvent>(validation(Messages.disputes.alreadyOpen));
  const left = state.charge.amount_centavos - refundedCentavos - disputeReturnedCentavos(state.disputes);
  const dispute: DisputeRecordData = {
    ...request,
    status: 'OPEN',
    blocked_centavos: Math.max(0, Math.min(request.claimed_centavos, left)),
    defence: null,
    return: null,
    closed_at: null,
  };
  return accept(changed(PixChargeEventTypes.disputeOpened, state, dispute));
}

/** One defence, while OPEN and up to the deadline (included). */
export function defendDispute(disputeId: number, defence: NonNullable<DisputeRecordData['defence']>, state: PixChargeState) {
  if (state.status === 'NONE') return reject<PixChargeEvent>(notFound(Messages.disputes.notFound));
  const dispute = state.disputes.find((d) => d.id === disputeId);
  if (!dispute) return reject<PixChargeEvent>(notFound(Messages.disputes.notFound));
  if (dispute.status === 'DEFENDED') return reject<PixChargeEvent>(validation(Messages.disputes.defenceTwice));
  if (dispute.status !== 'OPEN') return reject<PixChargeEvent>(validation(Messages.disputes.defenceClosed(dispute.status)));
  if (Date.parse(defence.submitted_at) > Date.parse(dispute.defence_deadline))
    return reject<PixChargeEvent>(validation(Messages.disputes.defenceLate(dispute.defence_deadline)));
  return accept(changed(PixChargeEventTypes.disputeDefended, state, { ...dispute, status: 'DEFENDED', defence }));
}

/** The bank's conclusion, final once given (a repeated report records nothing); a return never above the block. */
export function concludeDispute(infractionId: string, outcome: DisputeOutcome, state: PixChargeState) {
  if (state.status === 'NONE') return reject<PixChargeEvent>(notFound(Messages.disputes.notFound));
  const dispute = state.disputes.find((d) => d.infraction_id === infractionId);
  if (!dispute) return reject<PixChargeEvent>(notFound(Messages.disputes.notFound));
  if (!inProgress(dispute)) return accept<PixChargeEvent>();
  if (outcome.status === 'REJECTED')
    return accept(changed(PixChargeEventTypes.disputeRejected, state, { ...dispute, status: 'REJECTED', closed_at: outcome.closed_at }));
  const returned = outcome.return;
  if (returned.amount_centavos <= 0 || returned.amount_centavos > dispute.blocked_centavos)
    return reject<PixChargeEvent>(validation(Messages.disputes.returnExceedsBlocked(centavosToReais(dispute.blocked_centavos).toFixed(2))));
  return accept(changed(PixChargeEventTypes.disputeReturned, state, { ...dispute, status: 'RETURNED', return: returned, closed_at: returned.returned_at }));
}
