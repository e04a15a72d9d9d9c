import { RecurrenceCharges1763800000320 } from './recurrence-charges.migration';
import { ChargeSchedule1763800000340 } from './charge-schedule.migration';
import { ChargeSchedulerIndexes1763800000330 } from './charge-scheduler-indexes.migration';
import { ChargesDueIndex1763800000360 } from './charges-due-index.migration';
import { ChargesPaidIndex1763800001110 } from './daily-totals.migration';
import { RecurrenceWorkClaims1763800000350 } from './recurrence-work-claims.migration';
import { RecurrencesActivationDeadline1763800000310 } from './recurrences-activation.migration';
import { RecurrencesReadModel1763800000300 } from './recurrences.migration';

/** The recurrence service's tables beside its event store, in order: the service and the tests that stand in for it run these. */
export const RECURRENCE_MIGRATIONS = [
  RecurrencesReadModel1763800000300,
  RecurrencesActivationDeadline1763800000310,
  RecurrenceCharges1763800000320,
  ChargeSchedulerIndexes1763800000330,
  ChargeSchedule1763800000340,
  RecurrenceWorkClaims1763800000350,
  ChargesDueIndex1763800000360,
  ChargesPaidIndex1763800001110,
];
