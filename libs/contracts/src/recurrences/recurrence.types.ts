// The closed vocabularies of a recurrence (docs/api/recurrences.md). The JSDoc of the types is what merchants read.

export const RECURRENCE_STATUSES = ['CREATED', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;
/**
 * Where a recurrence stands. CREATED: waiting for the payer to authorize it. APPROVED: authorized; a charge is created
 * for each cycle. REJECTED: the payer refused. EXPIRED: a solicitation's deadline passed without an answer.
 * CANCELLED: you cancelled it. REJECTED, EXPIRED and CANCELLED are final.
 */
export type RecurrenceStatus = (typeof RECURRENCE_STATUSES)[number];

export const JOURNEYS = ['AWAITING_DEFINITION', 'JOURNEY_1', 'JOURNEY_2', 'JOURNEY_3'] as const;
/**
 * How the payer authorized the recurrence. AWAITING_DEFINITION: not yet. JOURNEY_1: by an alert in their banking app
 * (a solicitation). JOURNEY_2: by scanning the QR code or pasting the Pix code. JOURNEY_3: by paying the activation
 * payment with the same scan.
 */
export type Journey = (typeof JOURNEYS)[number];

export const PERIODICITIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
/** How often a cycle falls due: every week, month, 3 months, 6 months or year from `start_date`. */
export type Periodicity = (typeof PERIODICITIES)[number];

export const RETRY_POLICIES = ['NOT_ALLOWED', 'ALLOWS_3R_7D'] as const;
/**
 * Whether a failed charge may be retried. NOT_ALLOWED: never. ALLOWS_3R_7D: up to 3 retries, each on a date 1 to 7
 * days after the due date (never the due date itself).
 */
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

/** CANCELLED is the only status a client can set. */
export const CLIENT_SET_STATUSES = ['CANCELLED'] as const;
export type ClientSetStatus = (typeof CLIENT_SET_STATUSES)[number];
