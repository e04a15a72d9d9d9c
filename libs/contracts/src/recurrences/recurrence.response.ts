import { Journey, Periodicity, RecurrenceStatus, RetryPolicy } from './recurrence.types';
import { Pagination } from '../period-page';

// The recurrence object (docs/api/recurrences.md). The JSDoc below is what merchants read in the API reference.

/**
 * A recurrence: the payer's mandate (Pix Automático) authorizing you to charge a fixed amount on a periodic schedule.
 * Every recurrence endpoint answers this object.
 */
export interface RecurrenceResponse {
  /** Unique identifier of the recurrence, assigned at creation; every later call about it uses this id. */
  recurrence_id: string;
  /** Where the recurrence stands: CREATED until the payer answers, APPROVED once authorized, or ended (REJECTED, EXPIRED, CANCELLED). */
  status: RecurrenceStatus;
  /** The `transaction_id` you sent at creation: the identifier the payer sees in their banking app. */
  contract: string;
  /** The payer. Only the document and name are shown; an email and address sent at creation are kept and travel with the charges. */
  debtor: {
    /** The payer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation. */
    document_number: string;
    /** The payer's name, as sent at creation or last changed with `debtor_name`. */
    name: string;
  };
  /** When the cycles fall due. */
  schedule: {
    /** Due date of the first cycle, YYYY-MM-DD (Brasília time). */
    start_date: string;
    /** Last day a cycle may fall due, YYYY-MM-DD (Brasília time); null: open-ended, the recurrence runs until cancelled. */
    end_date: string | null;
    /** How often a cycle falls due. */
    periodicity: Periodicity;
  };
  /** Amount of each cycle's charge, in reais (BRL) with up to 2 decimal places; the same for every cycle. */
  amount: number;
  /** Whether a failed charge may be retried: NOT_ALLOWED, or ALLOWS_3R_7D (up to 3 retries within 7 days of the due date). */
  retry_policy: RetryPolicy;
  /** true: a due date on a weekend or a national or bank holiday moves to the next business day; false: the debit is on the exact date. */
  business_day_adjust: boolean;
  /** How many days before each due date the cycle's charge is created (3 to 10). */
  charge_lead_days: number;
  /** How the payer authorized: AWAITING_DEFINITION until they do, then JOURNEY_1 (alert in their banking app), JOURNEY_2 (QR code) or JOURNEY_3 (QR code with an immediate payment). */
  journey: Journey;
  /**
   * The Pix copy-and-paste code the payer uses to authorize the recurrence (and, on journey 3, to pay its activation).
   * null once the recurrence is REJECTED, EXPIRED or CANCELLED, and once a journey 3 activation expired unpaid.
   */
  pix_copy_paste: string | null;
  /**
   * The same code as a QR code image: a `data:image/png;base64,...` URI. Absent whenever `pix_copy_paste` is null,
   * and from list results; if a creation answer lacks it, read the recurrence with GET.
   */
  qrcode?: string;
  /** The URL that receives the events of the recurrence and of its charges; null: no notifications are sent. */
  webhook: string | null;
  /** Journey 3 only (created with `activation_amount`): the immediate payment the payer makes when authorizing. */
  activation?: {
    /** The activation's charge (`type: activation`), readable with GET /v2/automatic-pix/charges/{charge_id}. */
    charge_id: string;
    /** The activation amount, in reais. */
    amount: number;
  };
}

/** One page of recurrences created in the requested period, newest first. */
export interface RecurrenceListResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's recurrences, newest first by creation time; list results carry no `qrcode`. */
  recurrences: RecurrenceResponse[];
}
