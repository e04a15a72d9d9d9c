// Payloads of the charge events on Topics.recurrences (asyncapi.yaml): a recurrence's charges live in its stream,
// so they travel with the recurrence's own events, in its order. Each carries what a webhook needs: the URL in
// effect when it happened (the recurrence's current webhook for a cycle charge, the one at creation for the
// activation) and, since version 2, the charge as it stands after it. Money in integer centavos.
import { ChargeResponse, ChargeType } from './charge.types';

interface ChargeEventBase {
  charge_id: string;
  recurrence_id: string;
  type: ChargeType;
  /** Where the merchant is told of it; null when the recurrence has no webhook. */
  webhook: string | null;
}

export interface ChargeCreatedData extends ChargeEventBase {
  /** 1, 2, 3...: the cycle's number among the recurrence's cycle charges (absent for the activation). */
  cycle: number | null;
  /** The cycle's date before any business-day adjustment (absent for the activation). */
  nominal_date: string | null;
  due_date: string;
  amount_centavos: number;
  /** The bank's txid of the debit (cobr), or of the immediate payment for the activation. */
  txid: string;
  debtor: { document_number: string; name: string; email: string | null };
}

export interface ChargePaidData extends ChargeEventBase {
  amount_centavos: number;
  paid_at: string;
  end_to_end_id: string | null;
}

export interface ChargeFailedData extends ChargeEventBase {
  /** The date of the attempt the payer's bank refused. */
  attempt_date: string;
  reason: { code: string; description: string } | null;
  retries: number;
}

export interface ChargeCancelledData extends ChargeEventBase {
  /** Who ended it: the merchant through the API, the bank, or the end of its recurrence (an unpaid activation). */
  by: 'merchant' | 'bank' | 'recurrence_ended';
}

export interface ChargeRescheduledData extends ChargeEventBase {
  previous_due_date: string;
  due_date: string;
  /** The new debit at the bank (the previous one is cancelled there). */
  txid: string;
}

export interface ChargeRetryScheduledData extends ChargeEventBase {
  date: string;
  retries: number;
}

export type ChargeExpiredData = ChargeEventBase;

export const ChargeEventTypes = {
  created: 'charge.created',
  paid: 'charge.paid',
  failed: 'charge.failed',
  cancelled: 'charge.cancelled',
  rescheduled: 'charge.rescheduled',
  retryScheduled: 'charge.retry_scheduled',
  expired: 'charge.expired',
} as const;

/**
 * The record a charge event carries since version 2: the charge once the event applied, as GET shows it. Version 1
 * events (recorded before) carry only the change; read them through `upcastRecurrenceStreamEvent` (@pixauto/recurrences).
 */
export interface ChargeRecordData {
  charge: ChargeResponse;
}
