import {
  DisputeRecordData,
  PixChargeChangedData,
  PixChargeDisputeData,
  PixChargeEventTypes,
  PixChargePaidData,
  PixChargeRecordData,
  PixChargeRefundData,
  PixChargeStatus,
  RefundRecordData,
} from '@pixauto/contracts';
import { DomainEvent } from '@pixauto/event-store';

// A cash-in Pix charge's events and state (the decider: pix-charge.ts; its dispute rules: disputes/dispute-rules.ts).

export type PixChargeEvent =
  | DomainEvent<typeof PixChargeEventTypes.created, PixChargeChangedData>
  /** Also the version 1 payload of the first activation deposits (ActivationPaidDataV1), still read. */
  | DomainEvent<typeof PixChargeEventTypes.paid, PixChargePaidData>
  | DomainEvent<typeof PixChargeEventTypes.expired, PixChargeChangedData>
  | DomainEvent<typeof PixChargeEventTypes.refundRequested, PixChargeRefundData>
  | DomainEvent<typeof PixChargeEventTypes.refunded, PixChargeRefundData>
  | DomainEvent<typeof PixChargeEventTypes.refundFailed, PixChargeRefundData>
  | DomainEvent<typeof PixChargeEventTypes.disputeOpened, PixChargeDisputeData>
  | DomainEvent<typeof PixChargeEventTypes.disputeDefended, PixChargeDisputeData>
  | DomainEvent<typeof PixChargeEventTypes.disputeReturned, PixChargeDisputeData>
  | DomainEvent<typeof PixChargeEventTypes.disputeRejected, PixChargeDisputeData>;

/**
 * A charge, its refunds and its disputes, oldest first (both live on the charge's stream: what they give back is one
 * invariant).
 */
export type PixChargeState =
  { status: 'NONE' } | { status: PixChargeStatus; charge: PixChargeRecordData; refunds: RefundRecordData[]; disputes: DisputeRecordData[] };
