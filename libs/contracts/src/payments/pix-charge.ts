import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { Messages, validation } from '@pixauto/errors';
import { centavosToReais } from '@pixauto/pix';
import { Validated, validateQuery } from '../validation';

// Cash-in Pix charges (platform.md §3): POST /v2/pix creates one (PENDING, payable by its Pix code until
// `expires_at`), the payer pays it (PAID) or it expires (EXPIRED); GET /v2/pix?id= or ?transaction_id= reads it.
// The journey 3 activation payments reach the merchant as the same kind of record, already PAID (service-api.md 2.1).

export type PixChargeStatus = 'PENDING' | 'PAID' | 'EXPIRED';

export interface PixChargePayer {
  document_number: string;
  name: string;
}

/** POST /v2/pix (201) and GET /v2/pix (200): the same object. */
export interface PixChargeResponse {
  id: number;
  transaction_id: string;
  amount: number;
  status: PixChargeStatus;
  /** The bank that receives the payment: the account's `cashin_provider` when the charge was created. */
  provider: string;
  payer: PixChargePayer | null;
  description: string | null;
  webhook: string | null;
  /** The dynamic BR Code while PENDING; null once PAID or EXPIRED. */
  pix_copy_paste: string | null;
  /** The same code as a PNG data URI; present only while pix_copy_paste is. */
  qrcode?: string;
  expires_at: string | null;
  created_at: string;
  paid_at: string | null;
}

/**
 * The charge as every event of its stream carries it, whole, after the change (money in centavos): a follower
 * (the webhook dispatcher) shows it as GET would with `pixChargeResponse`, and upserts by (tenant, id) keeping
 * the highest `version`.
 */
export interface PixChargeRecordData {
  id: number;
  transaction_id: string;
  amount_centavos: number;
  status: PixChargeStatus;
  provider: string;
  payer: PixChargePayer | null;
  description: string | null;
  /** The merchant's notification URL in effect (fixed at creation); null: none. */
  webhook: string | null;
  pix_copy_paste: string | null;
  expires_at: string | null;
  created_at: string;
  paid_at: string | null;
  /** Our immediate charge at the bank (BCB `/cob`); null for an activation (recurrence-service's charge). */
  bank: { txid: string; location: string } | null;
  /** The Pix end-to-end id of the payment, once paid, where the bank named it. */
  e2e_id: string | null;
  /** A journey 3 activation: the recurrence and its activation charge; null for a merchant's charge. */
  origin: PixChargeOrigin | null;
}

export interface PixChargeOrigin {
  recurrence_id: string;
  activation_charge_id: string;
}

/** `pix_charge.created`, `pix_charge.paid` and `pix_charge.expired`. */
export interface PixChargeChangedData {
  charge: PixChargeRecordData;
}

/**
 * `pix_charge.paid` as recorded for the journey 3 activations before cash-in existed (version 1 of the payload).
 * Events outlive code: streams holding it are still read (`pixChargeRecordOf`), none is written any more.
 */
export interface ActivationPaidDataV1 {
  id: number;
  transaction_id: string;
  amount_centavos: number;
  provider: string;
  created_at: string;
  paid_at: string;
  origin: PixChargeOrigin;
}

export type PixChargePaidData = PixChargeChangedData | ActivationPaidDataV1;

export const PixChargeEventTypes = {
  created: 'pix_charge.created',
  paid: 'pix_charge.paid',
  expired: 'pix_charge.expired',
  /** A refund asked for (PixChargeRefundData); the charge stays PAID. */
  refundRequested: 'pix_charge.refund_requested',
  refunded: 'pix_charge.refunded',
  refundFailed: 'pix_charge.refund_failed',
} as const;

/** The charge a `pix_charge.*` event carries, whichever version of the payload it has. */
export function pixChargeRecordOf(data: PixChargePaidData): PixChargeRecordData {
  if ('charge' in data) return data.charge;
  return {
    id: data.id,
    transaction_id: data.transaction_id,
    amount_centavos: data.amount_centavos,
    status: 'PAID',
    provider: data.provider,
    payer: null,
    description: null,
    webhook: null,
    pix_copy_paste: null,
    expires_at: null,
    created_at: data.created_at,
    paid_at: data.paid_at,
    bank: null,
    e2e_id: null,
    origin: data.origin,
  };
}

/** The API's object (without the QR image, which is rendered on read from pix_copy_paste). */
export function pixChargeResponse(charge: PixChargeRecordData): PixChargeResponse {
  return {
    id: charge.id,
    transaction_id: charge.transaction_id,
    amount: centavosToReais(charge.amount_centavos),
    status: charge.status,
    provider: charge.provider,
    payer: charge.payer,
    description: charge.description,
    webhook: charge.webhook,
    pix_copy_paste: charge.pix_copy_paste,
    expires_at: charge.expires_at,
    created_at: charge.created_at,
    paid_at: charge.paid_at,
  };
}

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

/** A path id (`/v2/sandbox/pix/:id/pay`): a positive integer, else `params.id must be a positive integer`. */
export function validatePixChargeId(id: unknown): Validated<number> {
  return typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id) ? { ok: true, value: Number(id) } : { ok: false, refusal: validation(P.pathIdInvalid) };
}
