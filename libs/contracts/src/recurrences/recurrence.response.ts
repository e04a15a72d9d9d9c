import { Journey, Periodicity, RecurrenceStatus, RetryPolicy } from './recurrence.types';

/** The recurrence object of service-api.md 2.1, as every recurrence endpoint answers it. */
export interface RecurrenceResponse {
  recurrence_id: string;
  status: RecurrenceStatus;
  /** The transaction_id sent at creation. */
  contract: string;
  /** Email and address are stored but not echoed. */
  debtor: { document_number: string; name: string };
  schedule: { start_date: string; end_date: string | null; periodicity: Periodicity };
  amount: number;
  retry_policy: RetryPolicy;
  business_day_adjust: boolean;
  charge_lead_days: number;
  journey: Journey;
  /** Null once the recurrence has ended, or when a journey 3 activation expired unpaid. */
  pix_copy_paste: string | null;
  /** Base64 PNG data URI; absent where pix_copy_paste is null and from list results. */
  qrcode?: string;
  webhook: string | null;
  /** Journey 3 only: the immediate payment. */
  activation?: { charge_id: string; amount: number };
}

/** GET /v2/automatic-pix/recurrences (4.3): newest first, without qrcode. */
export interface RecurrenceListResponse {
  pagination: { current_page: number; page_size: number; total_pages: number; total_items: number };
  recurrences: RecurrenceResponse[];
}
