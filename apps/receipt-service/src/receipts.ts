import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  PayoutReceiptResponse,
  ProviderCredentials,
  RefundReceiptResponse,
  Tenant,
  validatePayoutReceiptQuery,
  validateRefundReceiptQuery,
} from '@pixauto/contracts';
import { Messages, receiptError, refuse } from '@pixauto/errors';
import { SecretBox } from '@pixauto/secrets';
import {
  chooseRefund,
  findAccountProviders,
  findReceiptParent,
  findReceiptPayout,
  findRefundByRefundId,
  findRefundsOf,
  KIND_WORDS,
  payoutReceiptFilename,
  payoutReceiptFor,
  ProviderRefusal,
  ReceiptKind,
  ReceiptProviderClient,
  ReceiptProviders,
  receiptFilename,
} from '@pixauto/receipts';

export const RECEIPT_PROVIDER_CLIENTS = Symbol('ReceiptProviders');

/**
 * Receipts, fetched live from the bank that processed the charge or payout, with the account's own credentials of the
 * moment (docs/decisions/receipts.md). What to fetch is found in this service's read model (charges,
 * payouts, refunds, the accounts' providers, all from Kafka); nothing of a receipt is kept.
 */
@Injectable()
export class Receipts implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(RECEIPT_PROVIDER_CLIENTS) private readonly providers: ReceiptProviders,
    private readonly secrets: SecretBox,
  ) {}

  /** The account's credentials for a provider, opened only for the call that uses them. */
  private credentialsOf(providers: ProviderCredentials[], code: string): Record<string, unknown> {
    return this.secrets.openJson(providers.find((p) => p.code === code)?.credentials ?? {});
  }

  /**
   * GET /v2/transactions/refund/receipt (kind 'pix') and GET /v2/withdrawals/refund/receipt (kind 'payout'): by the
   * refunded charge's or payout's id or transaction_id, or by the refund's refund_id.
   */
  async refundReceipt(kind: ReceiptKind, tenant: Tenant, query: unknown): Promise<RefundReceiptResponse> {
    const asked = validateRefundReceiptQuery(query);
    if (!asked.ok) return refuse(asked.refusal);
    const db = this.dataSource.manager;
    const q = asked.value;
    const words = KIND_WORDS[kind];
    const byRefundId = 'refund_id' in q ? await findRefundByRefundId(db, tenant, q.refund_id) : undefined;
    if ('refund_id' in q && !byRefundId) return refuse(receiptError(404, words.noRefund));
    if (byRefundId && byRefundId.kind !== kind) return refuse(receiptError(400, words.otherKind));
    const parent = await findReceiptParent(db, tenant, kind, byRefundId ? { id: byRefundId.parentId } : (q as { id: number } | { transaction_id: string }));
    if (!parent) return refuse(receiptError(404, words.notFound));
    const providers = await findAccountProviders(db, tenant.accountId);
    const refunds = byRefundId ? [] : await findRefundsOf(db, tenant, kind, parent.id);
    const chosen = chooseRefund(
      kind,
      parent,
      refunds,
      byRefundId?.refund,
      providers.map((p) => p.code),
    );
    if (!chosen.ok) return refuse(chosen.refusal);
    const pdf = await this.fetch(parent.provider, Messages.receipts.failed, (client) =>
      client.refundReceipt(this.credentialsOf(providers, parent.provider), chosen.refund.rtr_id),
    );
    return {
      type: 'refund',
      provider: parent.provider,
      id: chosen.refund.id,
      refund_id: chosen.refund.refund_id,
      transaction: { id: parent.id, transaction_id: parent.transaction_id },
      filename: receiptFilename(chosen.refund),
      content_type: 'application/pdf',
      pdf: pdf.toString('base64'),
    };
  }

  /** GET /v2/withdrawals/receipt: the bank's proof a completed payout was paid. */
  async payoutReceipt(tenant: Tenant, query: unknown): Promise<PayoutReceiptResponse> {
    const asked = validatePayoutReceiptQuery(query);
    if (!asked.ok) return refuse(asked.refusal);
    const db = this.dataSource.manager;
    const payout = (await findReceiptPayout(db, tenant, asked.value)) ?? refuse(receiptError(404, Messages.receipts.payoutNotFound));
    const providers = await findAccountProviders(db, tenant.accountId);
    const ready = payoutReceiptFor(
      payout,
      providers.map((p) => p.code),
    );
    if (!ready.ok) return refuse(ready.refusal);
    const pdf = await this.fetch(payout.provider, Messages.receipts.payoutFailed, (client) =>
      client.payoutReceipt(this.credentialsOf(providers, payout.provider), ready.e2e),
    );
    return {
      type: 'payout',
      provider: payout.provider,
      id: payout.id,
      transaction_id: payout.transaction_id,
      filename: payoutReceiptFilename(payout),
      content_type: 'application/pdf',
      pdf: pdf.toString('base64'),
    };
  }

  /** One call to the provider; its refusal (or silence past the time limit) is a 502 carrying the bank's words. */
  private async fetch(provider: string, failed: (provider: string) => string, call: (client: ReceiptProviderClient) => Promise<Buffer>): Promise<Buffer> {
    const client = this.providers.of(provider) ?? refuse(receiptError(400, Messages.receipts.notSupported(provider)));
    try {
      return await call(client);
    } catch (error) {
      if (error instanceof ProviderRefusal) return refuse(receiptError(502, failed(provider), error.message));
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.providers.close();
  }
}
