import { RecurrenceResponse } from './recurrence.response';
import { Journey, Periodicity, RetryPolicy } from './recurrence.types';

// Payloads of the recurrence events on Topics.recurrences (asyncapi.yaml). Money in integer centavos.
// The debtor's email and address travel here because the charges need them, though the API never echoes them.
// Version 2 (every event recorded now) adds the record: what changed, and the recurrence as it stands after it.

export interface RecurrenceDebtorData {
  document_number: string;
  name: string;
  email: string | null;
  address: { street: string; city: string; state: string; zip_code: string } | null;
}

export interface RecurrenceActivationData {
  charge_id: string;
  amount_centavos: number;
  /** The bank's txid of the immediate payment. */
  txid: string;
  expires_at: string;
  /** The activation keeps the webhook in effect at creation. */
  webhook: string | null;
  /** The account's cash-in bank, which receives the payment (it reaches the merchant as a Pix deposit). */
  provider: string;
}

export interface RecurrenceCreatedData {
  recurrence_id: string;
  transaction_id: string;
  object: string | null;
  debtor: RecurrenceDebtorData;
  schedule: { start_date: string; end_date: string | null; periodicity: Periodicity };
  amount_centavos: number;
  retry_policy: RetryPolicy;
  business_day_adjust: boolean;
  charge_lead_days: number;
  webhook: string | null;
  /** Where the bank keeps it: its recurrence id and the location the Pix code points at. */
  bank: { id_rec: string; location_id: number; location_url: string };
  pix_copy_paste: string;
  activation: RecurrenceActivationData | null;
}

/** Only what changed; webhook null means cleared. */
export interface RecurrenceUpdatedData {
  debtor_name?: string;
  start_date?: string;
  webhook?: string | null;
  business_day_adjust?: boolean;
  charge_lead_days?: number;
}

export interface RecurrenceApprovedData {
  journey: Exclude<Journey, 'AWAITING_DEFINITION'>;
  /** The Brasília day of the approval: cycles due before it are never charged. Absent from events before charges existed. */
  approved_on?: string;
}

export const RecurrenceEventTypes = {
  created: 'recurrence.created',
  updated: 'recurrence.updated',
  approved: 'recurrence.approved',
  rejected: 'recurrence.rejected',
  expired: 'recurrence.expired',
  cancelled: 'recurrence.cancelled',
  activationExpired: 'recurrence.activation_expired',
} as const;

/**
 * The record a recurrence event carries since version 2: the recurrence once the event applied, as GET shows it
 * without the QR image. Version 1 events (recorded before) carry only the change; read them through
 * `upcastRecurrenceStreamEvent` (@pixauto/recurrences).
 */
export interface RecurrenceRecordData {
  recurrence: RecurrenceResponse;
}
