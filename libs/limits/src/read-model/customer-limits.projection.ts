import { EntityManager } from 'typeorm';
import { LimitResponse, Tenant } from '@pixauto/contracts';
import { ProjectionRebuild, StoredEvent } from '@pixauto/event-store';
import { centavosToReais, isoUtc } from '@pixauto/pix';
import { CUSTOMER_LIMIT_STREAM, CustomerLimitEvent } from '../customer-limit';

/** The customer_limits read model: one row per limit, written in the transaction of its events. */
export async function projectCustomerLimit(tx: EntityManager, events: StoredEvent<CustomerLimitEvent>[]): Promise<void> {
  for (const event of events) {
    const limit = event.data;
    await tx.query(
      `INSERT INTO customer_limits AS l
         (account_id, environment, document_number, limit_type, mechanism, amount_centavos, quantity, details, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (account_id, environment, document_number, limit_type) DO UPDATE SET
         mechanism = EXCLUDED.mechanism, amount_centavos = EXCLUDED.amount_centavos, quantity = EXCLUDED.quantity,
         details = EXCLUDED.details, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at
       WHERE l.version < EXCLUDED.version`,
      [
        event.tenant.accountId,
        event.tenant.environment,
        limit.document_number,
        limit.limit_type,
        limit.mechanism,
        limit.amount_centavos,
        limit.quantity,
        limit.details,
        event.version,
        event.occurredAt,
      ],
    );
  }
}

export const customerLimitsRebuild: ProjectionRebuild<CustomerLimitEvent> = {
  streamType: CUSTOMER_LIMIT_STREAM,
  reset: async (tx) => void (await tx.query('TRUNCATE customer_limits')),
  apply: (tx, event) => projectCustomerLimit(tx, [event]),
};

interface CustomerLimitRow {
  document_number: string;
  limit_type: LimitResponse['type'];
  mechanism: LimitResponse['mechanism'];
  amount_centavos: string | null;
  quantity: number | null;
  details: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The limit object of service-api.md 2.5, or undefined when none is configured. */
export async function findCustomerLimit(db: EntityManager, tenant: Tenant, documentNumber: string, limitType: string): Promise<LimitResponse | undefined> {
  const [row]: CustomerLimitRow[] = await db.query(
    `SELECT document_number, limit_type, mechanism, amount_centavos, quantity, details, created_at, updated_at
       FROM customer_limits WHERE account_id = $1 AND environment = $2 AND document_number = $3 AND limit_type = $4`,
    [tenant.accountId, tenant.environment, documentNumber, limitType],
  );
  if (!row) return undefined;
  return {
    document_number: row.document_number,
    type: row.limit_type,
    mechanism: row.mechanism,
    ...(row.amount_centavos !== null && { amount: centavosToReais(Number(row.amount_centavos)) }),
    ...(row.quantity !== null && { quantity: row.quantity }),
    ...(row.details !== null && { details: row.details }),
    created_at: isoUtc(row.created_at),
    updated_at: isoUtc(row.updated_at),
  };
}
