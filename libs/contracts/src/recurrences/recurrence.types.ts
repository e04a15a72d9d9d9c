// The closed vocabularies of a recurrence (service-api.md 2.1 and 3.1).

export const RECURRENCE_STATUSES = ['CREATED', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;
export type RecurrenceStatus = (typeof RECURRENCE_STATUSES)[number];

export const JOURNEYS = ['AWAITING_DEFINITION', 'JOURNEY_1', 'JOURNEY_2', 'JOURNEY_3'] as const;
export type Journey = (typeof JOURNEYS)[number];

export const PERIODICITIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
export type Periodicity = (typeof PERIODICITIES)[number];

export const RETRY_POLICIES = ['NOT_ALLOWED', 'ALLOWS_3R_7D'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

/** CANCELLED is the only status a client can set (3.1). */
export const CLIENT_SET_STATUSES = ['CANCELLED'] as const;
export type ClientSetStatus = (typeof CLIENT_SET_STATUSES)[number];
