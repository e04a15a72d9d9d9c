import { EntityManager } from 'typeorm';
import { DayCentavos, PaymentsDailyTotals, ReportDays, reportPeriod, Tenant } from '@pixauto/contracts';

// GET /v2/reports/daily-totals, payments-service's part: one GROUP BY per table, by the Brasília day of the instant
// that counts, summed in integer centavos (sum of bigint is numeric in PostgreSQL: read as text, never a float).

/** Pix charges paid, by `paid_at`: a range of pix_charges_paid (status PAID only). */
const PIX_CHARGES_PAID = `
  SELECT to_char((paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS day, count(*)::int AS count, sum(amount_centavos)::text AS centavos
    FROM pix_charges
   WHERE account_id = $1 AND environment = $2 AND status = 'PAID' AND paid_at >= $3 AND paid_at < $4
   GROUP BY 1 ORDER BY 1`;

/** Refunds asked for, by `created_at`, failed ones left out (they moved no money): a range of pix_refunds_created. */
const REFUNDS_MADE = `
  SELECT to_char((created_at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS day, count(*)::int AS count, sum(amount_centavos)::text AS centavos
    FROM pix_refunds
   WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 AND status <> 'FAILED'
   GROUP BY 1 ORDER BY 1`;

export const PAYMENTS_DAILY_TOTALS_SQL = { pixChargesPaid: PIX_CHARGES_PAID, refundsMade: REFUNDS_MADE } as const;

export async function paymentsDailyTotals(db: EntityManager, tenant: Tenant, days: ReportDays): Promise<PaymentsDailyTotals> {
  const { from, to } = reportPeriod(days);
  const params = [tenant.accountId, tenant.environment, from, to];
  const [pixChargesPaid, refunds] = await Promise.all([db.query<DayCentavos[]>(PIX_CHARGES_PAID, params), db.query<DayCentavos[]>(REFUNDS_MADE, params)]);
  return { pix_charges_paid: pixChargesPaid, refunds };
}
