import { EntityManager } from 'typeorm';
import { ChargesDailyTotals, DayCentavos, FAILED_CHARGES_LISTED, ReportDays, reportPeriod, Tenant } from '@pixauto/contracts';

// GET /v2/reports/daily-totals, recurrence-service's part: Automatic Pix charges paid per Brasília day (by paid_at, a
// range of charges_paid), summed in integer centavos; and the failed ones due in the period (a range of charges_due).
// Cycle charges only: a journey 3 activation is paid as a Pix charge, and payments-service counts it among those.

const CHARGES_PAID = `
  SELECT to_char((paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS day, count(*)::int AS count, sum(amount_centavos)::text AS centavos
    FROM charges
   WHERE account_id = $1 AND environment = $2 AND status = 'PAID' AND paid_at >= $3 AND paid_at < $4 AND type = 'cycle'
   GROUP BY 1 ORDER BY 1`;

/** Every failed charge due in the period, counted, and the latest FAILED_CHARGES_LISTED of them. */
const CHARGES_FAILED = `
  SELECT charge_id, recurrence_id, amount_centavos::text AS centavos, to_char(due_date, 'YYYY-MM-DD') AS due_date, count(*) OVER ()::int AS total
    FROM charges
   WHERE account_id = $1 AND environment = $2 AND due_date >= $3::date AND due_date <= $4::date AND status = 'FAILED'
   ORDER BY due_date DESC, charge_id DESC
   LIMIT ${FAILED_CHARGES_LISTED}`;

export const CHARGES_DAILY_TOTALS_SQL = { paid: CHARGES_PAID, failed: CHARGES_FAILED } as const;

export async function chargesDailyTotals(db: EntityManager, tenant: Tenant, days: ReportDays): Promise<ChargesDailyTotals> {
  const { from, to } = reportPeriod(days);
  const [paid, failed] = await Promise.all([
    db.query<DayCentavos[]>(CHARGES_PAID, [tenant.accountId, tenant.environment, from, to]),
    db.query<Array<ChargesDailyTotals['failed'][number] & { total: number }>>(CHARGES_FAILED, [
      tenant.accountId,
      tenant.environment,
      days.start_day,
      days.end_day,
    ]),
  ]);
  return {
    paid,
    failed_count: failed[0]?.total ?? 0,
    failed: failed.map(({ charge_id, recurrence_id, centavos, due_date }) => ({ charge_id, recurrence_id, centavos, due_date })),
  };
}
