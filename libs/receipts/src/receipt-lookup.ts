import { PayoutStatus, RECEIPT_PROVIDERS } from '@pixauto/contracts';
import { Messages, receiptError, Refusal } from '@pixauto/errors';

// Which refund a receipt request means, and every refusal of a receipt request (docs/decisions/receipts.md) that can be
// judged before the bank is asked: pure, so each row is a unit test.

/** 'pix': a refund of a cash-in charge; 'payout': a payout the receiving bank sent back. */
export type ReceiptKind = 'pix' | 'payout';

/** What was refunded: a cash-in charge or a payout. */
export interface ReceiptParent {
  id: number;
  transaction_id: string;
  provider: string;
}

export interface ReceiptPayout extends ReceiptParent {
  status: number;
  e2e: string | null;
}

export interface ReceiptRefund {
  id: number;
  refund_id: string | null;
  status: 'PROCESSING' | 'REFUNDED' | 'FAILED';
  /** The provider identifier, once the bank liquidated the refund. */
  rtr_id: string | null;
}

const R = Messages.receipts;

/** The words of each kind where they differ (the spec writes the charge's; the payout's follow them). */
export const KIND_WORDS: Record<ReceiptKind, { notFound: string; noRefund: string; ambiguous: string; otherKind: string }> = {
  pix: { notFound: R.transactionNotFound, noRefund: R.noRefund, ambiguous: R.ambiguous, otherKind: R.belongsToPayout },
  payout: { notFound: R.payoutNotFound, noRefund: R.noPayoutRefund, ambiguous: R.payoutAmbiguous, otherKind: R.belongsToTransaction },
};

/** The provider must have a receipt API and be enabled for the account. */
export function checkProvider(
  provider: string,
  enabledProviders: readonly string[],
  notSupported: (provider: string) => string = R.notSupported,
): Refusal | undefined {
  if (!(RECEIPT_PROVIDERS as readonly string[]).includes(provider)) return receiptError(400, notSupported(provider));
  if (!enabledProviders.includes(provider)) return receiptError(400, R.notEnabled(provider));
  return undefined;
}

/**
 * The refund whose receipt to fetch: the provider checked; several refunds need refund_id; the refund needs its
 * provider identifier. Failed refunds have no receipt and do not count.
 */
export function chooseRefund(
  kind: ReceiptKind,
  parent: ReceiptParent,
  refunds: readonly ReceiptRefund[],
  chosen: ReceiptRefund | undefined,
  enabledProviders: readonly string[],
): { ok: true; refund: ReceiptRefund & { rtr_id: string } } | { ok: false; refusal: Refusal } {
  const words = KIND_WORDS[kind];
  const provider = checkProvider(parent.provider, enabledProviders);
  if (provider) return { ok: false, refusal: provider };
  const live = refunds.filter((r) => r.status !== 'FAILED');
  let refund = chosen;
  if (!refund) {
    if (live.length === 0) return { ok: false, refusal: receiptError(404, words.noRefund) };
    if (live.length > 1) {
      const named = live.flatMap((r) => (r.refund_id === null ? [] : [r.refund_id]));
      return { ok: false, refusal: receiptError(409, words.ambiguous, named.length > 0 ? named.join(',') : undefined) };
    }
    [refund] = live;
  }
  if (refund.status === 'FAILED') return { ok: false, refusal: receiptError(404, words.noRefund) };
  if (refund.rtr_id === null) return { ok: false, refusal: receiptError(409, R.notAvailable) };
  return { ok: true, refund: { ...refund, rtr_id: refund.rtr_id } };
}

/** A payout's own receipt: its provider checked, and only once the payout is completed with its end-to-end id. */
export function payoutReceiptFor(payout: ReceiptPayout, enabledProviders: readonly string[]): { ok: true; e2e: string } | { ok: false; refusal: Refusal } {
  const provider = checkProvider(payout.provider, enabledProviders, R.payoutNotSupported);
  if (provider) return { ok: false, refusal: provider };
  if (payout.status !== PayoutStatus.completed || payout.e2e === null) return { ok: false, refusal: receiptError(409, R.payoutNotCompleted) };
  return { ok: true, e2e: payout.e2e };
}

/** A file name a merchant's browser may suggest: letters, digits, dot, dash and underscore only. */
const safe = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_');

export const receiptFilename = (refund: ReceiptRefund): string => safe(`refund-${refund.refund_id ?? refund.id}.pdf`);
export const payoutReceiptFilename = (payout: ReceiptParent): string => safe(`payout-${payout.transaction_id}.pdf`);
