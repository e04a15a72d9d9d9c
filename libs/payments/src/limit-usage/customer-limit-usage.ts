import { LimitResponse, LimitType, Tenant } from '@pixauto/contracts';
import { limitExceeded, Messages, Refusal } from '@pixauto/errors';
import { sql, SqlStatement } from '@pixauto/event-store';
import { Centavos, reaisToCentavos } from '@pixauto/pix';

// Customer limits enforced (docs/decisions/limits.md) where the transactions are created: payments-service.
// The limit itself is limits-service's (read at request time, so a new limit applies to the very next request);
// the count of today's transactions per customer is kept here, in `customer_limit_usage`, and taken in the same
// statement that records the transaction, so it is exact under concurrency and never outlives a failed creation.

/** One transaction of one customer, on one Brasília day (the sandbox's follows the tenant's test clock). */
export interface LimitedTransaction {
  tenant: Tenant;
  documentNumber: string;
  type: LimitType;
  amountCentavos: Centavos;
  /** YYYY-MM-DD, Brasília (the count resets at midnight UTC-3). */
  day: string;
}

/** The limit as the gate needs it: a cap per transaction, or a cap per day. */
export type EnforcedLimit = { mechanism: 'amount'; amountCentavos: Centavos } | { mechanism: 'quantity'; quantity: number };

/** What limits-service answers, in the system's units; none when the customer has no limit. */
export function enforcedLimitOf(limit: LimitResponse | undefined): EnforcedLimit | undefined {
  if (!limit) return undefined;
  if (limit.mechanism === 'amount') return { mechanism: 'amount', amountCentavos: reaisToCentavos(limit.amount) ?? 0 };
  return { mechanism: 'quantity', quantity: limit.quantity ?? 0 };
}

const reais = (centavos: Centavos): string => (centavos / 100).toFixed(2);

/**
 * 8.2 items 1 and 2: an amount above the limit is refused, at the limit passes; when today's count equals the
 * limit, the next is refused. `usedToday` is a first look (before the bank is asked); the reservation decides.
 */
export function judgeLimit(transaction: LimitedTransaction, limit: EnforcedLimit | undefined, usedToday: number): Refusal | undefined {
  if (!limit) return undefined;
  if (limit.mechanism === 'amount')
    return transaction.amountCentavos > limit.amountCentavos
      ? limitExceeded(
          Messages.limitExceeded.amount(transaction.type, transaction.documentNumber, reais(transaction.amountCentavos), reais(limit.amountCentavos)),
        )
      : undefined;
  return usedToday >= limit.quantity ? quantityExceeded(transaction, limit.quantity) : undefined;
}

export const quantityExceeded = (transaction: LimitedTransaction, quantity: number): Refusal =>
  limitExceeded(Messages.limitExceeded.quantity(transaction.type, transaction.documentNumber, quantity));

/** The CHECK that fails a reservation beyond the day's cap (and with it the whole append). */
export const LIMIT_USAGE_CONSTRAINT = 'customer_limit_usage_within_cap';

const dailyCapOf = (limit: EnforcedLimit | undefined): number | null => (limit?.mechanism === 'quantity' ? limit.quantity : null);

/**
 * Read-model statement for the append that records a transaction: one more of today's, under the cap in force.
 * Every transaction is counted, limited or not, so a limit set during the day counts what came before it.
 */
export function reserveLimitUsage(transaction: LimitedTransaction, limit: EnforcedLimit | undefined): SqlStatement {
  const { tenant, documentNumber, type, day } = transaction;
  return sql(
    `INSERT INTO customer_limit_usage (account_id, environment, document_number, limit_type, day, used, cap)
     VALUES ($1, $2, $3, $4, $5, 1, $6)
     ON CONFLICT (account_id, environment, document_number, limit_type, day)
     DO UPDATE SET used = customer_limit_usage.used + 1, cap = EXCLUDED.cap`,
    [tenant.accountId, tenant.environment, documentNumber, type, day, dailyCapOf(limit)],
  );
}

/** A transaction that will not happen (a payout rejected or cancelled) gives its unit of its day back. */
export function releaseLimitUsage(transaction: Omit<LimitedTransaction, 'amountCentavos'>): SqlStatement {
  const { tenant, documentNumber, type, day } = transaction;
  return sql(
    `UPDATE customer_limit_usage SET used = used - 1
      WHERE account_id = $1 AND environment = $2 AND document_number = $3 AND limit_type = $4 AND day = $5 AND used > 0`,
    [tenant.accountId, tenant.environment, documentNumber, type, day],
  );
}

/** Whether an append failed because the day's cap was reached meanwhile (a concurrent request took the last unit). */
export const isLimitUsageExhausted = (error: unknown): boolean => {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23514' && constraint === LIMIT_USAGE_CONSTRAINT;
};

/** How many of the customer's transactions of this type the day has counted so far. */
export async function usedToday(
  db: { query: (text: string, values: unknown[]) => Promise<{ used: number }[]> },
  transaction: LimitedTransaction,
): Promise<number> {
  const { tenant, documentNumber, type, day } = transaction;
  const [row] = await db.query(
    'SELECT used FROM customer_limit_usage WHERE account_id = $1 AND environment = $2 AND document_number = $3 AND limit_type = $4 AND day = $5',
    [tenant.accountId, tenant.environment, documentNumber, type, day],
  );
  return row ? Number(row.used) : 0;
}
