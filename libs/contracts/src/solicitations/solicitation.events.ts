import { SolicitationStatus } from './solicitation.types';

// Payloads of the solicitation events on Topics.solicitations (asyncapi.yaml).

export interface SolicitationCreatedData {
  solicitation_id: string;
  recurrence_id: string;
  expires_at: string;
  destination: { agency: string; account: string; document_number: string; ispb: string };
  bank: { id_solic_rec: string };
}

/** The payer's decision, as the payer's bank reported it. */
export type SolicitationAnswer = 'ACCEPTED' | 'REJECTED';

export const SolicitationEventTypes = {
  created: 'solicitation.created',
  /** The alert's path: CREATED → SENT → RECEIVED. */
  alertProgressed: 'solicitation.alert_progressed',
  answered: 'solicitation.answered',
  expired: 'solicitation.expired',
  cancelled: 'solicitation.cancelled',
} as const;

export interface AlertProgressedData {
  status: Exclude<SolicitationStatus, 'CREATED' | 'CANCELLED'>;
}

/** The outcomes carry their recurrence: recurrence-service moves it on them. */
export interface SolicitationAnsweredData {
  recurrence_id: string;
  answer: SolicitationAnswer;
}

export interface SolicitationExpiredData {
  recurrence_id: string;
}
