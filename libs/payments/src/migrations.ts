import { PixDisputesReadModel1763800002100 } from './disputes/disputes.migration';
import { CustomerLimitUsage1763800000600 } from './limit-usage/customer-limit-usage.migration';
import { PaymentWorkClaims1763800000640 } from './payment-work-claims.migration';
import { PaymentPeriodLists1763800000650 } from './period-lists.migration';
import { PixChargesPaidIndex1763800001100 } from './daily-totals.migration';
import { PayoutsReadModel1763800000610 } from './payouts/payouts.migration';
import { PixChargesCashIn1763800000620 } from './read-model/pix-charges.cash-in.migration';
import { PixChargesReadModel1763800000500 } from './read-model/pix-charges.migration';
import { PixRefundsReadModel1763800000630 } from './refunds/refunds.migration';
import { DueDateChargesReadModel1763800002200 } from './due-date-charges/due-date-charges.migration';

/** The payments service's tables beside its event store, in order: the service and the tests that stand in for it run these. */
export const PAYMENTS_MIGRATIONS = [
  PixChargesReadModel1763800000500,
  CustomerLimitUsage1763800000600,
  PayoutsReadModel1763800000610,
  PixChargesCashIn1763800000620,
  PixRefundsReadModel1763800000630,
  PaymentWorkClaims1763800000640,
  PaymentPeriodLists1763800000650,
  PixChargesPaidIndex1763800001100,
  PixDisputesReadModel1763800002100,
  DueDateChargesReadModel1763800002200,
];
