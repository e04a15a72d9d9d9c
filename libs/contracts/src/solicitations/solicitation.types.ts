export const SOLICITATION_STATUSES = ['CREATED', 'SENT', 'RECEIVED', 'CANCELLED'] as const;
/**
 * The path of the alert, not the payer's decision. CREATED: recorded, not yet sent. SENT: sent to the
 * payer's institution. RECEIVED: the payer's institution received it (not that the payer agreed: that shows in the
 * recurrence's status). CANCELLED: you cancelled it before the payer answered.
 */
export type SolicitationStatus = (typeof SOLICITATION_STATUSES)[number];

/**
 * A solicitation: the recurrence sent to the payer's banking app for authorization (journey 1). The payer's answer
 * shows in the recurrence: APPROVED (journey JOURNEY_1) or REJECTED, or EXPIRED when `expires_at` passes unanswered.
 */
export interface SolicitationResponse {
  /** Unique identifier of the solicitation. */
  solicitation_id: string;
  /** The recurrence being authorized. */
  recurrence_id: string;
  /** The path of the alert (CREATED, SENT, RECEIVED) or CANCELLED; not the payer's decision. */
  status: SolicitationStatus;
}
