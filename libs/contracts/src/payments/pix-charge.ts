import { IsIn } from 'class-validator';
import { Messages, validation } from '@pixauto/errors';
import { centavosToReais } from '@pixauto/pix';
import { oneIdentifier } from '../one-identifier';
import { recordIdOf } from '../record-id';
import { Pagination, PeriodPage, PeriodPageParams, validatePeriodPage } from '../period-page';
import { OptionalField } from '../recurrences/recurrence.validators';
import { Validated } from '../validation';

// Cash-in Pix charges (docs/decisions/cash-in.md): POST /v2/pix creates one (PENDING, payable by its Pix code until
// `expires_at`), the payer pays it (PAID) or it expires (EXPIRED); GET /v2/pix?id= or ?transaction_id= reads it.
// The journey 3 activation payments reach the merchant as the same kind of record, already PAID.

/** PENDING: payable by its code until `expires_at`. PAID: the payer paid it. EXPIRED: unpaid by `expires_at`. */
export type PixChargeStatus = 'PENDING' | 'PAID' | 'EXPIRED';
export const PIX_CHARGE_STATUSES: readonly PixChargeStatus[] = ['PENDING', 'PAID', 'EXPIRED'];

/** The payer of a Pix charge. */
export interface PixChargePayer {
  /** The payer's CPF (11 digits) or CNPJ (14 characters: digits, or capital letters and digits for a CNPJ issued since July 2026), without punctuation. */
  document_number: string;
  /** The payer's name. */
  name: string;
}

// POST /v2/pix (201) and GET /v2/pix (200): the same object. The JSDoc is what merchants read in the API reference.
/**
 * A Pix charge (cash-in): an amount the payer pays by QR code or Pix copy-and-paste. A journey 3 activation payment
 * reaches you as one too, already PAID, its `transaction_id` the recurrence's followed by `-ativacao`.
 */
export interface PixChargeResponse {
  /** Unique identifier of the charge (an integer), assigned at creation; refunds and receipts accept it as `id`. */
  id: number;
  /** Your identifier of the charge, as sent at creation (for an activation payment: the recurrence's `transaction_id` followed by `-ativacao`). */
  transaction_id: string;
  /** Amount to receive, in reais (BRL) with up to 2 decimal places. */
  amount: number;
  /** PENDING until the payer pays (PAID) or `expires_at` passes (EXPIRED). */
  status: PixChargeStatus;
  /** The bank that receives the payment (PROVIDER_A, PROVIDER_B or PROVIDER_C): your account's cash-in bank when the charge was created. */
  provider: string;
  /** The payer, as sent at creation (for an activation payment, the recurrence's debtor); null only on some older activation payments. */
  payer: PixChargePayer | null;
  /** The message shown to the payer (for an activation payment, the recurrence's `object`); null: none. */
  description: string | null;
  /** The URL that receives the charge's events; null: no notifications. */
  webhook: string | null;
  /** The Pix copy-and-paste code (a dynamic BR Code) while the charge is PENDING; null once it is PAID or EXPIRED. */
  pix_copy_paste: string | null;
  /** The same code as a QR code image, a `data:image/png;base64,...` URI; present only while `pix_copy_paste` is. */
  qrcode?: string;
  /** When the code stops being payable, ISO 8601 in UTC (creation plus `expires_in`); null only on some older activation payments. */
  expires_at: string | null;
  /** When the charge was created, ISO 8601 in UTC. */
  created_at: string;
  /** When the payer paid, ISO 8601 in UTC; null until the charge is PAID. */
  paid_at: string | null;
  /** The payer's bank disputes (or disputed) this payment: the latest dispute and what disputes returned; null: never disputed. */
  dispute: PixChargeDisputeSummary | null;
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
  /** The payment's latest dispute; absent or null: never disputed. */
  dispute?: PixChargeDisputeSummary | null;
}

/** The payment's latest dispute, as the charge shows it. */
export interface PixChargeDisputeSummary {
  /** The dispute's `id` (GET /v2/disputes/{id}). */
  id: number;
  /** OPEN, DEFENDED, RETURNED or REJECTED. */
  status: 'OPEN' | 'DEFENDED' | 'RETURNED' | 'REJECTED';
  /** What went back to the payer through disputes, in reais (BRL); 0 until a dispute is RETURNED. */
  returned_amount: number;
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
  /** The payer's bank disputes the payment (PixChargeDisputeData); the disputed amount is blocked. */
  disputeOpened: 'pix_charge.dispute_opened',
  /** The merchant sent a defence. */
  disputeDefended: 'pix_charge.dispute_defended',
  /** The bank concluded for the payer: money returned (a devolução of natureza MED_*). */
  disputeReturned: 'pix_charge.dispute_returned',
  /** The bank rejected the claim: the blocked money is released. */
  disputeRejected: 'pix_charge.dispute_rejected',
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
    dispute: charge.dispute ?? null,
  };
}

/** The suffix of an activation deposit's transaction_id. */
export const ACTIVATION_SUFFIX = '-ativacao';

const P = Messages.payments;

/** Exactly one of id and transaction_id (oneIdentifier: an empty value counts as absent); only that one is checked. */
export function validatePixChargeQuery(query: unknown): Validated<{ id: number } | { transaction_id: string }> {
  const named = oneIdentifier(query, ['id', 'transaction_id'], { required: P.identifierRequired, onlyOne: P.onlyOneIdentifier });
  if (!named.ok) return named;
  const { key, value } = named.value;
  if (key === 'transaction_id')
    return typeof value === 'string' ? { ok: true, value: { transaction_id: value } } : { ok: false, refusal: validation(P.transactionIdInvalid) };
  const id = recordIdOf(value);
  return id === undefined ? { ok: false, refusal: validation(P.idInvalid) } : { ok: true, value: { id } };
}

/** A path id (`/v2/sandbox/pix/:id/pay`): a positive integer, else `params.id must be a positive integer`. */
export function validatePixChargeId(id: unknown): Validated<number> {
  const valid = recordIdOf(id);
  return valid === undefined ? { ok: false, refusal: validation(P.pathIdInvalid) } : { ok: true, value: valid };
}

// GET /v2/pix/charges: the period list (as the recurrences'), with a status filter of its own.

class ListPixChargesParams extends PeriodPageParams {
  @IsIn(PIX_CHARGE_STATUSES, { message: P.statusInvalid })
  @OptionalField()
  status?: string;
}

/** The Pix charges created from start (included) to end (excluded), of one status or all, one page, newest first. */
export interface ListPixChargesQuery extends PeriodPage {
  status: PixChargeStatus | undefined;
}

export function validateListPixCharges(query: unknown): Validated<ListPixChargesQuery> {
  const checked = validatePeriodPage(ListPixChargesParams, query);
  if (!checked.ok) return checked;
  return { ok: true, value: { ...checked.value.period, status: checked.value.params.status as PixChargeStatus | undefined } };
}

/** One page of the Pix charges created in the requested period, newest first. */
export interface PixChargeListResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's charges, newest first by creation time; list results carry no `qrcode`. */
  charges: PixChargeResponse[];
}
