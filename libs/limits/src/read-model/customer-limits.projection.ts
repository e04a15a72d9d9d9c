import { EntityManager } from 'typeorm';
import { CustomerLimitData, LimitResponse, Tenant } from '@pixauto/contracts';
import { Projection, ProjectionRebuild, sql } from '@pixauto/event-store';
import { centavosToReais, isoUtc } from '@pixauto/pix';
import { CUSTOMER_LIMIT_STREAM, customerLimit, CustomerLimitEvent, CustomerLimitState } from '../customer-limit';

/** The customer_limits read model: one row per limit, upserted from the state the new events lead to. */
export const projectCustomerLimit: Projection<CustomerLimitEvent, CustomerLimitState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status !== 'configured') return [];
  const limit = state.limit;
  return [
    sql(
      `INSERT INTO customer_limits AS l
         (account_id, environment, document_number, limit_type, mechanism, amount_centavos, quantity, details, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (account_id, environment, document_number, limit_type) DO UPDATE SET
         mechanism = EXCLUDED.mechanism, amount_centavos = EXCLUDED.amount_centavos, quantity = EXCLUDED.quantity,
         details = EXCLUDED.details, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
       WHERE l.version < EXCLUDED.version`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        limit.document_number,
        limit.limit_type,
        limit.mechanism,
        limit.amount_centavos,
        limit.quantity,
        limit.details,
        last.version,
        last.occurredAt,
      ],
    ),
  ];
};

export const customerLimitsRebuild: ProjectionRebuild<CustomerLimitEvent, CustomerLimitState> = {
  streamType: CUSTOMER_LIMIT_STREAM,
  reset: async (tx) => void (await tx.query('TRUNCATE customer_limits')),
  decider: customerLimit,
  project: projectCustomerLimit,
};

interface CustomerLimitRow extends Omit<CustomerLimitData, 'amount_centavos'> {
  amount_centavos: string | null; // bigint arrives as text
  created_at: Date;
  updated_at: Date;
}

/** The limit object (docs/api/limits.md), or undefined when none is configured. */
export async function findCustomerLimit(db: EntityManager, tenant: Tenant, documentNumber: string, limitType: string): Promise<LimitResponse | undefined> {
  const [row]: CustomerLimitRow[] = await db.query(
    `SELECT document_number, limit_type, mechanism, amount_centavos, quantity, details, created_at, updated_at
       FROM customer_limits WHERE account_id = $1 AND environment = $2 AND document_number = $3 AND limit_type = $4`,
    [tenant.accountId, tenant.environment, documentNumber, limitType],
  );
  if (!row) return undefined;
  const limit = { ...row, amount_centavos: row.amount_centavos === null ? null : Number(row.amount_centavos) };
  return limitResponse(limit, row.created_at, row.updated_at);
}

/** The limit object (docs/api/limits.md): reais on the wire, absent keys rather than nulls. */
export function limitResponse(limit: CustomerLimitData, createdAt: Date, updatedAt: Date): LimitResponse {
  return {
    document_number: limit.document_number,
    type: limit.limit_type,
    mechanism: limit.mechanism,
    ...(limit.amount_centavos !== null && { amount: centavosToReais(limit.amount_centavos) }),
    ...(limit.quantity !== null && { quantity: limit.quantity }),
    ...(limit.details !== null && { details: limit.details }),
    created_at: isoUtc(createdAt),
    updated_at: isoUtc(updatedAt),
  };
}
