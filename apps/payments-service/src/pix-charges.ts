import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountProfile,
  Environment,
  paginationOf,
  PixChargeListResponse,
  PixChargeRecordData,
  PixChargeRequest,
  pixChargeResponse,
  PixChargeResponse,
  reply,
  ServiceReply,
  Tenant,
  Topics,
  validateCreatePixCharge,
  validateListPixCharges,
  validatePixChargeId,
  validatePixChargeQuery,
} from '@pixauto/contracts';
import { Banks, centavosToValor, CobCompleta, CobSolicitada, PIX_RECEIVER_KEY, PixBankClient, PixRecebido, toBankDocument } from '@pixauto/bank';
import { Messages, notFound, Refusal, refuse, validation } from '@pixauto/errors';
import { EventStore, SqlStatement } from '@pixauto/event-store';
import {
  claimDuePixChargeExpiries,
  findPixCharge,
  findPixChargeById,
  findPixChargeByTxid,
  isLimitUsageExhausted,
  listPixCharges,
  LimitedTransaction,
  nextPixChargeId,
  PIX_CHARGE_STREAM,
  pixCharge,
  PixChargeCommand,
  PixChargeRef,
  pixChargeStreamId,
  pixChargeTransactionIdTaken,
  projectPixCharge,
  quantityExceeded,
  reserveLimitUsage,
} from '@pixauto/payments';
import { brasiliaDate, Clock, immediatePaymentPixCode, isoUtc, QrCodeImages } from '@pixauto/pix';
import { CLOCK, PeriodicTask } from '@pixauto/runtime';
import { CustomerLimits } from './customer-limits';

/** The receiver's DICT key named on every charge (BCB `chave`); by default the bank simulator's own (SIMULATOR_RECEIVER_KEY). */
/** The city printed in Pix codes: the PSP's (a merchant's address is not part of the account yet). */
const MERCHANT_CITY = process.env.PIX_MERCHANT_CITY ?? 'SAO PAULO';
const UNIQUE_VIOLATION = '23505';

/**
 * The bank's name for our charge (BCB txid, 26 to 35 letters and digits), derived from our id and environment, so a
 * notification names the charge without a lookup table and production and sandbox never share one: 29 characters.
 */
export const txidOf = (environment: Environment, id: number): string => `PIXAUTOC${environment === 'production' ? 'P' : 'S'}${String(id).padStart(20, '0')}`;

/** Cash-in Pix charges (docs/decisions/cash-in.md): the bank first, then our events; paid by the payer, or expired. */
@Injectable()
export class PixCharges {
  private readonly logger = new Logger('PixCharges');
  private readonly qrCodes = new QrCodeImages();

  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: CustomerLimits,
  ) {}

  /**
   * POST /v2/pix. Validation, the transaction_id and the customer's cashin limit (docs/decisions/limits.md) are judged
   * before the bank creates the charge (`PUT /cob/{txid}`); a bank refusal leaves nothing of ours. A request that
   * loses a race after the bank call (the same transaction_id, the customer's last unit of the day) has its charge
   * removed at the bank.
   */
  async create(tenant: Tenant, account: AccountProfile | undefined, body: unknown): Promise<ServiceReply> {
    const request = validateCreatePixCharge(body);
    if (!request.ok) return refuse(request.refusal);
    const r = request.value;
    if (await pixChargeTransactionIdTaken(this.dataSource.manager, tenant, r.transaction_id))
      return refuse(validation(Messages.transactions.transactionIdTaken));
    const now = this.clock.now(tenant);
    const transaction: LimitedTransaction = {
      tenant,
      documentNumber: r.payer.document_number,
      type: 'cashin',
      amountCentavos: r.amount_centavos,
      day: brasiliaDate(now),
    };
    const limit = await this.limits.admit(transaction);

    const id = await nextPixChargeId(this.dataSource.manager);
    const txid = txidOf(tenant.environment, id);
    const bank = this.bank(tenant);
    const cob = await bank.createImmediateCharge(txid, bankChargeOf(r));
    const location = cob.loc?.location ?? cob.location ?? '';
    const charge: PixChargeRecordData = {
      id,
      transaction_id: r.transaction_id,
      amount_centavos: r.amount_centavos,
      status: 'PENDING',
      provider: account?.cashin_provider ?? 'PROVIDER_A',
      payer: r.payer,
      description: r.description,
      webhook: r.webhook,
      pix_copy_paste: immediatePaymentPixCode({ merchantName: account?.name ?? '', merchantCity: MERCHANT_CITY, paymentUrl: location }),
      expires_at: isoUtc(new Date(now.getTime() + r.expires_in * 1000)),
      created_at: isoUtc(now),
      paid_at: null,
      bank: { txid, location },
      e2e_id: null,
      origin: null,
    };

    let refusal: Refusal | undefined;
    try {
      const outcome = await this.execute(tenant, r.transaction_id, { type: 'CreatePixCharge', charge }, [reserveLimitUsage(transaction, limit)]);
      if (!outcome.ok) refusal = outcome.refusal;
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === UNIQUE_VIOLATION && constraint === 'pix_charges_transaction_id') refusal = validation(Messages.transactions.transactionIdTaken);
      // A concurrent request took the customer's last unit of the day between the first look and this append.
      else if (isLimitUsageExhausted(error) && limit?.mechanism === 'quantity') refusal = quantityExceeded(transaction, limit.quantity);
      else throw error;
    }
    if (refusal) {
      // Ours must not stay payable at the bank (best effort: unpaid, it expires there anyway).
      await bank.removeImmediateCharge(txid).catch((error: unknown) => this.logger.warn(`charge ${txid} not removed at the bank: ${String(error)}`));
      return refuse(refusal);
    }
    return reply(this.withQrCode(pixChargeResponse(charge)), 201);
  }

  /** GET /v2/pix?id= or ?transaction_id=: the same object as the creation answered, as it is now. */
  async get(tenant: Tenant, query: unknown): Promise<PixChargeResponse> {
    const request = validatePixChargeQuery(query);
    if (!request.ok) return refuse(request.refusal);
    const found = (await findPixCharge(this.dataSource.manager, tenant, request.value)) ?? refuse(notFound(Messages.payments.notFound));
    return this.withQrCode(found);
  }

  /** GET /v2/pix/charges: the period list (as the recurrences'), activation deposits included; no QR images. */
  async list(tenant: Tenant, query: unknown): Promise<PixChargeListResponse> {
    const request = validateListPixCharges(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, charges } = await listPixCharges(this.dataSource.manager, tenant, request.value);
    return { pagination: paginationOf(request.value, total), charges };
  }

  /** POST /v2/sandbox/pix/:id/pay (sandbox): the simulated payer pays at the bank, and we record its answer. */
  async sandboxPay(tenant: Tenant, idParam: string | undefined): Promise<PixChargeResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const ref = (await findPixChargeById(this.dataSource.manager, tenant, id.value)) ?? refuse(notFound(Messages.payments.notFound));
    const state = await this.eventStore.load(pixCharge, pixChargeStreamId(tenant, ref.transactionId));
    const check = pixCharge.decide({ type: 'CheckPayable' }, state);
    if (!check.ok) return refuse(check.refusal);
    if (!ref.txid) return refuse(notFound(Messages.payments.notFound)); // unreachable: only a merchant's charge is ever PENDING
    const cob = await this.banks.sandboxPayer.at(this.clock.now(tenant)).payImmediateCharge(ref.txid);
    await this.recordBankCharge(ref, cob);
    return this.get(tenant, { id: String(id.value) });
  }

  /**
   * A payment the bank notified (`POST {webhookUrl}/pix`): recorded as the bank's own view of the charge shows it
   * (`GET /cob/{txid}`), so a notification is a cue, never the proof. Unknown txids (not ours, the other
   * environment's, a journey 3 activation's) are left alone.
   */
  async recordNotified(environment: Environment, pix: PixRecebido): Promise<void> {
    if (!pix.txid) return;
    const ref = await findPixChargeByTxid(this.dataSource.manager, environment, pix.txid);
    if (!ref) return;
    await this.recordBankCharge(ref, await this.banks.of(ref.tenant).getImmediateCharge(pix.txid));
  }

  /**
   * PENDING charges past expires_at at their tenant's now (durable: the read model's column, swept here) become
   * EXPIRED. The bank's charge is removed first, so it can no longer be paid; one that was paid meanwhile (a lost
   * notification) is recorded PAID instead. A bank that cannot be reached does not hold the expiry back.
   */
  async expireDue(limit: number): Promise<boolean> {
    const claim = await claimDuePixChargeExpiries(this.dataSource.manager, this.clock.now(), limit);
    const expired = await claim.hold((due) =>
      Promise.all(
        due.map((ref) =>
          this.expire(ref).then(
            () => true,
            (error: unknown) => {
              this.logger.warn(`charge ${ref.id} not expired yet: ${String(error)}`);
              return false;
            },
          ),
        ),
      ),
    );
    return claim.items.length === limit && expired.some(Boolean);
  }

  private async expire(ref: PixChargeRef): Promise<void> {
    if (ref.txid) {
      const bank = this.bank(ref.tenant);
      await bank.removeImmediateCharge(ref.txid).catch(() => undefined);
      const cob = await bank.getImmediateCharge(ref.txid).catch(() => undefined);
      if (cob && paymentOf(cob)) return this.recordBankCharge(ref, cob);
    }
    await this.execute(ref.tenant, ref.transactionId, { type: 'ExpirePixCharge' });
  }

  private async recordBankCharge(ref: PixChargeRef, cob: CobCompleta): Promise<void> {
    const pix = paymentOf(cob);
    if (!pix) return;
    const outcome = await this.execute(ref.tenant, ref.transactionId, {
      type: 'RecordPayment',
      payment: { paid_at: isoUtc(new Date(pix.horario)), e2e_id: pix.endToEndId },
    });
    if (!outcome.ok) refuse(outcome.refusal);
  }

  private execute(tenant: Tenant, transactionId: string, command: PixChargeCommand, extra: SqlStatement[] = []) {
    return this.eventStore.handle(pixCharge, command, {
      streamId: pixChargeStreamId(tenant, transactionId),
      streamType: PIX_CHARGE_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.payments.name,
      project: (events, state) => [...projectPixCharge(events, state), ...extra],
    });
  }

  /** The bank as the tenant sees it: a sandbox tenant's calls carry its test clock's now (the charge's expiry follows it). */
  private bank(tenant: Tenant): PixBankClient {
    return this.banks.of(tenant, this.clock.now(tenant));
  }

  /** The QR image while the code is payable (rendered on read, cached; never stored). */
  private withQrCode(charge: PixChargeResponse): PixChargeResponse {
    return charge.pix_copy_paste === null ? charge : { ...charge, qrcode: this.qrCodes.of(charge.pix_copy_paste) };
  }
}

/** The settled payment of a charge, if the bank has one (BCB: CONCLUIDA, with `pix`). */
const paymentOf = (cob: CobCompleta): PixRecebido | undefined => (cob.status === 'CONCLUIDA' ? cob.pix?.[0] : undefined);

/** PUT /cob/{txid}: payable for expires_in seconds from now, by this payer, with the description shown to them. */
function bankChargeOf(r: PixChargeRequest): CobSolicitada {
  return {
    calendario: { expiracao: r.expires_in },
    devedor: { ...toBankDocument(r.payer.document_number), nome: r.payer.name },
    valor: { original: centavosToValor(r.amount_centavos) },
    chave: PIX_RECEIVER_KEY,
    ...(r.description && { solicitacaoPagador: r.description }),
  };
}

/** The expiry sweep: works from the read model's expires_at, so a restart (even kill -9) misses no deadline. */
export const pixChargeExpiry = (charges: PixCharges): PeriodicTask => new PeriodicTask('PixChargeExpiry', 500, () => charges.expireDue(50));
