import { ChargeEventTypes } from '@pixauto/contracts';
import { Projection, rowsSql } from '@pixauto/event-store';
import { brasiliaStartOfDay } from '@pixauto/pix';
import { nextCycleOf, Recurrence, RecurrenceEvent, RecurrenceState } from '../recurrence';
import { chargeStatements } from './charges.projection';
import { recurrenceRowOf } from './recurrences.queries';

/**
 * When the next cycle's charge is due to be created (the start of its creation day in Brasília), or null when no
 * charge is to come: not APPROVED, or the schedule has ended. Cycles due before the approval day are never charged.
 */
export function nextChargeAt(r: Recurrence): Date | null {
  if (r.status !== 'APPROVED') return null;
  const next = nextCycleOf(r);
  return next && brasiliaStartOfDay(next.creation_date);
}

const CHARGE_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(ChargeEventTypes));

/**
 * The recurrences read model: one row per recurrence, upserted from the state the new events lead to, and its
 * charge_schedule row (when the next charge is due). Charge events change none of the recurrence's own columns, so
 * an append of charges alone (the scheduler's) writes only the schedule's narrow row, not the wide recurrence row
 * with its five indexes.
 */
export const projectRecurrence: Projection<RecurrenceEvent, RecurrenceState> = (events, state) => {
  const last = events[events.length - 1];
  if (!last || state.status === 'NONE') return [];
  const schedule = rowsSql(
    `INSERT INTO charge_schedule AS s (account_id, environment, recurrence_id, next_charge_at, version)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[])
       ON CONFLICT (account_id, environment, recurrence_id) DO UPDATE SET next_charge_at = EXCLUDED.next_charge_at, version = EXCLUDED.version
       WHERE s.version < EXCLUDED.version`,
    [last.tenant.accountId, last.tenant.environment, state.data.recurrence_id, nextChargeAt(state), last.version],
  );
  if (events.every((event) => CHARGE_EVENT_TYPES.has(event.type))) return [schedule, ...chargeStatements(events, state)];
  const row = recurrenceRowOf(state);
  const r = state.data;
  return [
    rowsSql(
      `INSERT INTO recurrences AS r (account_id, environment, recurrence_id, transaction_id, status, journey, debtor_document_number,
         debtor_name, start_date, end_date, periodicity, amount_centavos, retry_policy, business_day_adjust, charge_lead_days, webhook,
         pix_copy_paste, activation_charge_id, activation_amount_centavos, bank_id_rec, version, created_at, updated_at,
         activation_expires_at, activation_expired)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::date[], $10::date[],
         $11::text[], $12::bigint[], $13::text[], $14::boolean[], $15::int[], $16::text[], $17::text[], $18::text[], $19::bigint[], $20::text[],
         $21::int[], $22::timestamptz[], $23::timestamptz[], $24::timestamptz[], $25::boolean[])
       ON CONFLICT (account_id, environment, recurrence_id) DO UPDATE SET
         status = EXCLUDED.status, journey = EXCLUDED.journey, debtor_name = EXCLUDED.debtor_name, start_date = EXCLUDED.start_date,
         business_day_adjust = EXCLUDED.business_day_adjust, charge_lead_days = EXCLUDED.charge_lead_days, webhook = EXCLUDED.webhook,
         pix_copy_paste = EXCLUDED.pix_copy_paste, activation_expired = EXCLUDED.activation_expired, version = EXCLUDED.version,
         updated_at = EXCLUDED.updated_at
       WHERE r.version < EXCLUDED.version`,
      [
        last.tenant.accountId,
        last.tenant.environment,
        row.recurrence_id,
        row.transaction_id,
        row.status,
        row.journey,
        row.debtor_document_number,
        row.debtor_name,
        row.start_date,
        row.end_date,
        row.periodicity,
        row.amount_centavos,
        row.retry_policy,
        row.business_day_adjust,
        row.charge_lead_days,
        row.webhook,
        row.pix_copy_paste,
        row.activation_charge_id,
        row.activation_amount_centavos,
        r.bank.id_rec,
        last.version,
        last.occurredAt,
        last.occurredAt,
        r.activation?.expires_at ?? null,
        state.activationExpired,
      ],
    ),
    schedule,
    ...chargeStatements(events, state),
  ];
};
