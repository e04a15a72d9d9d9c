import { IsDefined, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Messages } from '@pixauto/errors';
import { centavosToReais, reaisToCentavos } from '@pixauto/pix';
import { HasAtMostTwoDecimals, IsPositiveReais } from '../limits/limit.validators';
import { MAX_RECORD_ID } from '../record-id';
import { oneIdentifier } from '../one-identifier';
import { OptionalField } from '../recurrences/recurrence.validators';
import { Pagination, PeriodPage, PeriodPageParams, validatePeriodPage } from '../period-page';
import { validateBody, Validated } from '../validation';
import { PixChargeRecordData } from './pix-charge';

// Refunds of a paid cash-in charge (docs/decisions/refunds.md): POST /v2/transactions/refund, or started by the service itself
// (the sandbox's POST /v2/sandbox/transactions/:id/refund, no refund_id). Several partial refunds may follow each
// other; their sum never exceeds the charge's amount. Each goes to the bank (BCB PUT /pix/{e2eid}/devolucao/{id})
// and follows it: PROCESSING (EM_PROCESSAMENTO), REFUNDED (DEVOLVIDO), FAILED (NAO_REALIZADO or refused).

/** PROCESSING: sent to the bank, not settled yet. REFUNDED: the bank returned the money to the payer. FAILED: the bank refused or could not make it. */
export type RefundStatus = 'PROCESSING' | 'REFUNDED' | 'FAILED';

/** A refund as every refund event carries it, whole, after the change (money in centavos). */
export interface RefundRecordData {
  id: number;
  /** The merchant's identifier; null for a refund the service started itself. */
  refund_id: string | null;
  amount_centavos: number;
  status: RefundStatus;
  /** Our name for it at the bank (BCB DevolucaoId). */
  bank_id: string;
  /** The provider identifier: the return's rtrId, once the bank liquidated the refund. Receipts need it. */
  rtr_id: string | null;
  /** The bank's reason, when FAILED. */
  failure_reason: string | null;
  created_at: string;
  refunded_at: string | null;
}

/** `pix_charge.refund_requested`, `pix_charge.refunded` and `pix_charge.refund_failed`: the charge and the refund. */
export interface PixChargeRefundData {
  charge: PixChargeRecordData;
  refund: RefundRecordData;
}

// POST /v2/transactions/refund (201), and the sandbox's refund routes (200/201): the refund as it is.
/** A refund of a paid Pix charge: money sent back to the payer, whole or in part. */
export interface RefundResponse {
  /** Unique identifier of the refund (an integer), also the `id` of its receipt. */
  id: number;
  /** Your identifier of the refund, as sent; null for a refund the service started itself. */
  refund_id: string | null;
  /** Amount refunded, in reais (BRL) with up to 2 decimal places. */
  amount: number;
  /** PROCESSING until the bank settles it (REFUNDED) or refuses it (FAILED). */
  status: RefundStatus;
  /** The refunded Pix charge. */
  transaction: {
    /** The charge's `id`. */
    id: number;
    /** The charge's `transaction_id`. */
    transaction_id: string;
  };
  /** When the refund was asked for, ISO 8601 in UTC. */
  created_at: string;
  /** When the bank settled it, ISO 8601 in UTC; null until it is REFUNDED. */
  refunded_at: string | null;
}

export function refundResponse(refund: RefundRecordData, charge: Pick<PixChargeRecordData, 'id' | 'transaction_id'>): RefundResponse {
  return {
    id: refund.id,
    refund_id: refund.refund_id,
    amount: centavosToReais(refund.amount_centavos),
    status: refund.status,
    transaction: { id: charge.id, transaction_id: charge.transaction_id },
    created_at: refund.created_at,
    refunded_at: refund.refunded_at,
  };
}

const R = Messages.refunds;
const T = Messages.transactions;
const MAX_AMOUNT = 9_999_999_999.99;

@JSONSchema({ description: 'How much to refund.' })
class RefundAmount {
  @JSONSchema({
    description: 'Amount to refund, in reais (BRL): positive, at most 2 decimal places, at most what is left of the charge. Absent: everything that is left.',
  })
  @Max(MAX_AMOUNT, { message: T.amountTooLarge })
  @HasAtMostTwoDecimals({ message: T.amountDecimals })
  @IsPositiveReais({ message: T.amountPositive })
  @OptionalField()
  amount?: number;
}

@JSONSchema({ description: 'A refund of a paid Pix charge, named by exactly one of `id` and `transaction_id`.' })
export class CreateRefundRequest extends RefundAmount {
  @JSONSchema({ description: 'The `id` of the Pix charge to refund (a positive integer). Send this or `transaction_id`, not both.' })
  @Max(MAX_RECORD_ID, { message: R.idInvalid })
  @Min(1, { message: R.idInvalid })
  @IsInt({ message: R.idInvalid })
  @OptionalField()
  id?: number;

  @JSONSchema({ description: 'The `transaction_id` of the Pix charge to refund. Send this or `id`, not both.' })
  @IsString({ message: R.transactionIdInvalid })
  @OptionalField()
  transaction_id?: string;

  @JSONSchema({
    description:
      'Your identifier of the refund, 1 to 35 characters, unique in your account among refunds that did not fail. It names the refund in its receipt.',
  })
  @MaxLength(35, { message: R.refundIdInvalid })
  @IsString({ message: R.refundIdInvalid })
  @IsNotEmpty({ message: R.refundIdRequired })
  @IsDefined({ message: R.refundIdRequired })
  refund_id!: string;
}

/** A valid POST /v2/transactions/refund: the charge by one identifier, the amount in centavos (absent: what is left). */
export interface RefundRequest {
  charge: { id: number } | { transaction_id: string };
  refund_id: string;
  amount_centavos: number | undefined;
}

const REFUND_FIELDS = ['id', 'transaction_id', 'refund_id', 'amount'];

/**
 * Unknown fields first, then exactly one of id and transaction_id (oneIdentifier: an empty value counts as absent, and
 * is left out of the checks that follow), then every field rule in one message.
 */
export function validateCreateRefund(body: unknown): Validated<RefundRequest> {
  const sent = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  let fields: unknown = body;
  if (sent && Object.keys(sent).every((key) => REFUND_FIELDS.includes(key))) {
    const named = oneIdentifier(sent, ['id', 'transaction_id'], { required: R.identifierRequired, onlyOne: R.onlyOneIdentifier });
    if (!named.ok) return named;
    const { id: _id, transaction_id: _transactionId, ...rest } = sent;
    fields = { ...rest, [named.value.key]: named.value.value };
  }
  const checked = validateBody(CreateRefundRequest, fields, REFUND_FIELDS);
  if (!checked.ok) return checked;
  const r = checked.value;
  return {
    ok: true,
    value: {
      charge: r.id !== undefined ? { id: r.id } : { transaction_id: r.transaction_id as string },
      refund_id: r.refund_id,
      amount_centavos: r.amount === undefined ? undefined : (reaisToCentavos(r.amount) as number),
    },
  };
}

/** POST /v2/sandbox/transactions/:id/refund: `{amount?}` (absent or an empty body: what is left). */
export function validateSandboxRefund(body: unknown): Validated<{ amount_centavos: number | undefined }> {
  const checked = validateBody(RefundAmount, body ?? {}, ['amount']);
  if (!checked.ok) return checked;
  return { ok: true, value: { amount_centavos: checked.value.amount === undefined ? undefined : (reaisToCentavos(checked.value.amount) as number) } };
}

// GET /v2/transactions/refunds: the period list (as the recurrences'), refunds of Pix charges only (a payout sent
// back shows on its payout).

/** The refunds asked for from start (included) to end (excluded), one page, newest first. */
export type ListRefundsQuery = PeriodPage;

export function validateListRefunds(query: unknown): Validated<ListRefundsQuery> {
  const checked = validatePeriodPage(PeriodPageParams, query);
  return checked.ok ? { ok: true, value: checked.value.period } : checked;
}

/** One page of the refunds of your Pix charges asked for in the requested period, newest first. */
export interface RefundListResponse {
  /** Where this page sits in the whole result. */
  pagination: Pagination;
  /** This page's refunds, newest first by `created_at`, whatever their status. */
  refunds: RefundResponse[];
}
