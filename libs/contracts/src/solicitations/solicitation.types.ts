/** The path of the alert, not the payer's decision (service-api.md 2.2). */
export const SOLICITATION_STATUSES = ['CREATED', 'SENT', 'RECEIVED', 'CANCELLED'] as const;
export type SolicitationStatus = (typeof SOLICITATION_STATUSES)[number];

/** The solicitation object of 2.2. */
export interface SolicitationResponse {
  solicitation_id: string;
  recurrence_id: string;
  status: SolicitationStatus;
}
