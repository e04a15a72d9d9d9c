import { EntityManager } from 'typeorm';
import { EventEnvelope, PixChargeResponse, RecurrenceCreatedData, RecurrenceEventTypes, Tenant } from '@pixauto/contracts';
import { Projection, sql } from '@pixauto/event-store';
import { centavosToReais, isoUtc } from '@pixauto/pix';
import { PixChargeEvent, PixChargeState } from '../pix-charge';

export const projectPixCharge: Projection<PixChargeEvent, PixChargeState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const c = state.data;
  return [
    sql(
      `INSERT INTO pix_charges (account_id, environment, id, transaction_id, amount_centavos, status, provider, recurrence_id, created_at, paid_at, version)
       VALUES ($1, $2, $3, $4, $5, 'PAID', $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
      [last.tenant.accountId, last.tenant.environment, c.id, c.transaction_id, c.amount_centavos, c.provider, c.origin.recurrence_id, c.created_at, c.paid_at, last.version],
    ),
  ];
};

export const nextPixChargeId = async (db: EntityManager): Promise<number> => Number((await db.query(`SELECT nextval('pix_charge_ids') AS id`))[0].id);

export async function findPixCharge(db: EntityManager, tenant: Tenant, by: { id?: number; transaction_id?: string }): Promise<PixChargeResponse | undefined> {
  const [row] = await db.query(
    `SELECT id, transaction_id, amount_centavos, status, provider, created_at, paid_at FROM pix_charges
      WHERE account_id = $1 AND environment = $2 AND ${by.id !== undefined ? 'id = $3' : 'transaction_id = $3'}`,
    [tenant.accountId, tenant.environment, by.id ?? by.transaction_id],
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    transaction_id: row.transaction_id,
    amount: centavosToReais(Number(row.amount_centavos)),
    status: row.status,
    provider: row.provider,
    created_at: isoUtc(row.created_at),
    paid_at: row.paid_at ? isoUtc(row.paid_at) : null,
  };
}

export interface PendingActivation {
  transactionId: string;
  activationChargeId: string;
  amountCentavos: number;
  provider: string;
  createdAt: Date;
}

/** Remembers a journey 3 activation when its recurrence is created (in the consumer's transaction). */
export async function learnActivation(tx: EntityManager, event: EventEnvelope): Promise<void> {
  if (event.type !== RecurrenceEventTypes.created) return;
  const data = event.data as RecurrenceCreatedData;
  if (!data.activation) return;
  // Events outlive code: one recorded before activations named their provider means the platform's default bank.
  const provider = data.activation.provider ?? 'PROVIDER_A';
  await tx.query(
    `INSERT INTO pending_activations (account_id, environment, recurrence_id, transaction_id, activation_charge_id, amount_centavos, provider, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [event.tenant.account_id, event.tenant.environment, data.recurrence_id, data.transaction_id, data.activation.charge_id, data.activation.amount_centavos, provider, event.occurred_at],
  );
}

export async function findPendingActivation(db: EntityManager, tenant: Tenant, recurrenceId: string): Promise<PendingActivation | undefined> {
  const [row] = await db.query(
    'SELECT transaction_id, activation_charge_id, amount_centavos, provider, created_at FROM pending_activations WHERE account_id = $1 AND environment = $2 AND recurrence_id = $3',
    [tenant.accountId, tenant.environment, recurrenceId],
  );
  return (
    row && {
      transactionId: row.transaction_id,
      activationChargeId: row.activation_charge_id,
      amountCentavos: Number(row.amount_centavos),
      provider: row.provider,
      createdAt: row.created_at,
    }
  );
}
