import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { Messages, validation } from '@pixauto/errors';
import { Validated, validateQuery } from '../validation';

// Cash-in Pix charges (platform.md §3: GET /v2/pix?id= or ?transaction_id=). Today they hold the journey 3
// activation payments, which reach the merchant as paid Pix deposits (service-api.md 2.1).

export type PixChargeStatus = 'PENDING' | 'PAID';

export interface PixChargeResponse {
  id: number;
  transaction_id: string;
  amount: number;
  status: PixChargeStatus;
  provider: string;
  created_at: string;
  paid_at: string | null;
}

export interface PixChargePaidData {
  id: number;
  transaction_id: string;
  amount_centavos: number;
  provider: string;
  created_at: string;
  paid_at: string;
  /** Where it came from: the activation of a journey 3 recurrence. */
  origin: { recurrence_id: string; activation_charge_id: string };
}

export const PixChargeEventTypes = { paid: 'pix_charge.paid' } as const;

/** The suffix of an activation deposit's transaction_id (2.1). */
export const ACTIVATION_SUFFIX = '-ativacao';

const P = Messages.payments;

class PixChargeQuery {
  @IsOptional()
  @Min(1, { message: P.idInvalid })
  @IsInt({ message: P.idInvalid })
  @Type(() => Number)
  id?: number;

  @IsOptional()
  @IsString({ message: P.transactionIdInvalid })
  transaction_id?: string;
}

/** Exactly one of id and transaction_id. */
export function validatePixChargeQuery(query: unknown): Validated<PixChargeQuery> {
  const sent = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const given = ['id', 'transaction_id'].filter((key) => sent[key] !== undefined && sent[key] !== '');
  if (given.length === 0) return { ok: false, refusal: validation(P.identifierRequired) };
  if (given.length > 1) return { ok: false, refusal: validation(P.onlyOneIdentifier) };
  return validateQuery(PixChargeQuery, sent);
}
