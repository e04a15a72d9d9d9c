import { EntityManager } from 'typeorm';
import { DayCentavos, PayoutsDailyTotals, ReportDays, reportPeriod, Tenant } from '@pixauto/contracts';

// GET /v2/reports/daily-totals, payout-query-service's part: a range of payout_lookups_period (the tenant's payouts in
// created_at order, status in the index), grouped by the Brasília day they were made, summed in integer centavos.

/** Payout statuses that moved no money: 2 canceled, 3 rejected. */
const CANCELED = 2;
const REJECTED = 3;

export const PAYOUTS_DAILY_TOTALS_SQL = `
  SELECT to_char((created_at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS day,
         count(*) FILTER (WHERE status NOT IN (${CANCELED}, ${REJECTED}))::int AS count,
         coalesce(sum(amount_centavos) FILTER (WHERE status NOT IN (${CANCELED}, ${REJECTED})), 0)::text AS centavos,
         count(*) FILTER (WHERE status = ${REJECTED})::int AS rejected
    FROM payout_lookups
   WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
   GROUP BY 1 ORDER BY 1`;

export async function payoutsDailyTotals(db: EntityManager, tenant: Tenant, days: ReportDays): Promise<PayoutsDailyTotals> {
  const { from, to } = reportPeriod(days);
  const rows = await db.query<Array<DayCentavos & { rejected: number }>>(PAYOUTS_DAILY_TOTALS_SQL, [tenant.accountId, tenant.environment, from, to]);
  return {
    payouts: rows.filter((row) => row.count > 0).map(({ day, count, centavos }) => ({ day, count, centavos })),
    rejected: rows.reduce((sum, row) => sum + row.rejected, 0),
  };
}
