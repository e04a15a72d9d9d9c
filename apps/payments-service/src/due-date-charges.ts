import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountProfile,
  DueDateChargeListResponse,
  DueDateChargeEventTypes,
  DueDateChargeRecordData,
  DueDateChargeRequest,
  dueDateChargeResponse,
  DueDateChargeResponse,
  Environment,
  paginationOf,
  reply,
  ServiceReply,
  Tenant,
  Topics,
  validateChangeDueDateCharge,
  validateCreateDueDateCharge,
  validateDueDateChargeQuery,
  validateListDueDateCharges,
  validatePixChargeId,
} from '@pixauto/contracts';
import { Banks, CobVCompleta, CobVSolicitada, PIX_RECEIVER_KEY, PixBankClient, PixRecebido, toBankDocument, toCobVValor } from '@pixauto/bank';
import { Messages, notFound, Refusal, refuse, validation } from '@pixauto/errors';
import { EventStore, SqlStatement } from '@pixauto/event-store';
import {
  claimDueDateChargeExpiries,
  DUE_DATE_CHARGE_STREAM,
  dueDateCharge,
  DueDateChargeCommand,
  DueDateChargeRef,
  dueDateChargeStreamId,
  dueDateChargeTransactionIdTaken,
  findDueDateCharge,
  findDueDateChargeByTxid,
  LimitedTransaction,
  listDueDateCharges,
  nextDueDateChargeId,
  projectDueDateCharge,
  reserveLimitUsage,
} from '@pixauto/payments';
import { amountDueOn, brasiliaDate, Clock, immediatePaymentPixCode, isoUtc, QrCodeImages } from '@pixauto/pix';
import { CLOCK, PeriodicTask } from '@pixauto/runtime';
import { CustomerLimits } from './customer-limits';

const MERCHANT_CITY = process.env.PIX_MERCHANT_CITY ?? 'SAO PAULO';
const UNIQUE_VIOLATION = '23505';
const D = Messages.dueDateCharges;

/** The bank's name for our due-date charge: as the cash-in charges' (txidOf), with V for cobv: 29 characters. */
export const dueDateTxidOf = (environment: Environment, id: number): string =>
  `PIXAUTOV${environment === 'production' ? 'P' : 'S'}${String(id).padStart(20, '0')}`;
export const isDueDateTxid = (txid: string): boolean => txid.startsWith('PIXAUTOV');

/**
 * Due-date Pix charges (docs/decisions/due-date-charges.md): the bank first (`PUT /cobv/{txid}`), then our events;
 * changed or cancelled at the bank first too; paid by the payer with the amount of the day, or expired after the
 * last payable day.
 */
@Injectable()
export class DueDateCharges {
  private readonly logger = new Logger('DueDateCharges');
  private readonly qrCodes = new QrCodeImages();

  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: CustomerLimits,
  ) {}

  /** POST /v2/cobv. Validated, the transaction_id looked at, then the bank creates the charge; a bank refusal leaves nothing of ours. */
  async create(tenant: Tenant, account: AccountProfile | undefined, body: unknown): Promise<ServiceReply> {
    const today = this.clock.today(tenant);
    const request = validateCreateDueDateCharge(body, today);
    if (!request.ok) return refuse(request.refusal);
    const r = request.value;
    if (await dueDateChargeTransactionIdTaken(this.dataSource.manager, tenant, r.transaction_id))
      return refuse(validation(Messages.transactions.transactionIdTaken));
    const now = this.clock.now(tenant);
    const id = await nextDueDateChargeId(this.dataSource.manager);
    const txid = dueDateTxidOf(tenant.environment, id);
    const bank = this.bank(tenant);
    const cobv = await bank.createDueDateCharge(txid, bankChargeOf(r));
    const charge: DueDateChargeRecordData = {
      ...r,
      id,
      status: 'PENDING',
      provider: account?.cashin_provider ?? 'PROVIDER_A',
      pix_copy_paste: immediatePaymentPixCode({ merchantName: account?.name ?? '', merchantCity: MERCHANT_CITY, paymentUrl: cobv.location }),
      revision: 0,
      created_at: isoUtc(now),
      updated_at: isoUtc(now),
      paid_at: null,
      paid: null,
      bank: { txid, location: cobv.location },
      e2e_id: null,
    };
    let refusal: Refusal | undefined;
    try {
      const outcome = await this.execute(tenant, r.transaction_id, { type: 'CreateDueDateCharge', charge });
      if (!outcome.ok) refusal = outcome.refusal;
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === UNIQUE_VIOLATION && constraint === 'due_date_charges_transaction_id') refusal = validation(Messages.transactions.transactionIdTaken);
      else throw error;
    }
    if (refusal) {
      // A race lost on the transaction_id: ours must not stay payable at the bank (best effort).
      await bank.removeDueDateCharge(txid).catch((error: unknown) => this.logger.warn(`due-date charge ${txid} not removed at the bank: ${String(error)}`));
      return refuse(refusal);
    }
    return reply(this.response(charge, today), 201);
  }

  /** GET /v2/cobv?id= or ?transaction_id=: as it is now, with what the payer owes today. */
  async get(tenant: Tenant, query: unknown): Promise<DueDateChargeResponse> {
    const request = validateDueDateChargeQuery(query);
    if (!request.ok) return refuse(request.refusal);
    const found = (await findDueDateCharge(this.dataSource.manager, tenant, request.value)) ?? refuse(notFound(D.notFound));
    return this.response(found, this.clock.today(tenant));
  }

  /** GET /v2/cobv/charges: the period list, newest first; no QR images. */
  async list(tenant: Tenant, query: unknown): Promise<DueDateChargeListResponse> {
    const request = validateListDueDateCharges(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, charges } = await listDueDateCharges(this.dataSource.manager, tenant, request.value);
    const today = this.clock.today(tenant);
    return { pagination: paginationOf(request.value, total), charges: charges.map((c) => dueDateChargeResponse(c, today)) };
  }

  /**
   * PATCH /v2/cobv/{id}: new terms, or `{"status": "CANCELLED"}`. Judged on the charge first (a refusal asks nothing
   * of the bank), then the bank revises or removes its charge, then our event.
   */
  async change(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<DueDateChargeResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const request = validateChangeDueDateCharge(body);
    if (!request.ok) return refuse(request.refusal);
    const found = (await findDueDateCharge(this.dataSource.manager, tenant, { id: id.value })) ?? refuse(notFound(D.notFound));
    const today = this.clock.today(tenant);
    const at = isoUtc(this.clock.now(tenant));
    const command: DueDateChargeCommand =
      request.value.type === 'cancel' ? { type: 'CancelDueDateCharge', at } : { type: 'ChangeDueDateCharge', changes: request.value.changes, today, at };
    const state = await this.eventStore.load(dueDateCharge, dueDateChargeStreamId(tenant, found.transaction_id));
    const decision = dueDateCharge.decide(command, state);
    if (!decision.ok) return refuse(decision.refusal);
    const [event] = decision.events;
    if (!event) return this.response(found, today); // cancelled already
    const bank = this.bank(tenant);
    if (event.type === DueDateChargeEventTypes.cancelled) await bank.removeDueDateCharge(found.bank.txid);
    else await bank.reviseDueDateCharge(found.bank.txid, bankChargeOf({ ...event.data.charge }));
    const outcome = await this.execute(tenant, found.transaction_id, command);
    if (!outcome.ok) return refuse(outcome.refusal);
    return this.response(outcome.state.status === 'NONE' ? found : outcome.state.charge, today);
  }

  /**
   * POST /v2/sandbox/cobv/{id}/pay: the simulated payer pays today (the test clock's) the amount of the day. The
   * payer's cash-in limit is judged on that amount first, as a cash-in charge's is at its creation.
   */
  async sandboxPay(tenant: Tenant, idParam: string | undefined): Promise<DueDateChargeResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const found = (await findDueDateCharge(this.dataSource.manager, tenant, { id: id.value })) ?? refuse(notFound(D.notFound));
    const today = this.clock.today(tenant);
    const state = await this.eventStore.load(dueDateCharge, dueDateChargeStreamId(tenant, found.transaction_id));
    const check = dueDateCharge.decide({ type: 'CheckPayable', today }, state);
    if (!check.ok) return refuse(check.refusal);
    const amount = amountDueOn(found, today)?.final ?? 0;
    await this.limits.admit(limitedTransaction(tenant, found, amount, today));
    const cobv = await this.banks.sandboxPayer.at(this.clock.now(tenant)).payDueDateCharge(found.bank.txid);
    await this.recordBankCharge({ tenant, id: found.id, transactionId: found.transaction_id, txid: found.bank.txid }, cobv);
    return this.get(tenant, { id: String(id.value) });
  }

  /** A Pix the bank notified for one of our due-date charges: recorded as the bank's own view of the charge shows it. */
  async recordNotified(environment: Environment, pix: PixRecebido): Promise<void> {
    if (!pix.txid) return;
    const ref = await findDueDateChargeByTxid(this.dataSource.manager, environment, pix.txid);
    if (!ref) return;
    await this.recordBankCharge(ref, await this.banks.of(ref.tenant).getDueDateCharge(pix.txid));
  }

  /** PENDING charges past their last payable day (their tenant's today) become EXPIRED; one paid meanwhile is recorded PAID. */
  async expireDue(limit: number): Promise<boolean> {
    const claim = await claimDueDateChargeExpiries(this.dataSource.manager, this.clock.now(), limit);
    const expired = await claim.hold((due) =>
      Promise.all(
        due.map((ref) =>
          this.expire(ref).then(
            () => true,
            (error: unknown) => {
              this.logger.warn(`due-date charge ${ref.id} not expired yet: ${String(error)}`);
              return false;
            },
          ),
        ),
      ),
    );
    return claim.items.length === limit && expired.some(Boolean);
  }

  private async expire(ref: DueDateChargeRef): Promise<void> {
    const cobv = await this.bank(ref.tenant)
      .getDueDateCharge(ref.txid)
      .catch(() => undefined);
    if (cobv && paymentOf(cobv)) return this.recordBankCharge(ref, cobv);
    const now = this.clock.now(ref.tenant);
    await this.execute(ref.tenant, ref.transactionId, { type: 'ExpireDueDateCharge', today: brasiliaDate(now), at: isoUtc(now) });
  }

  /** The payment the bank holds, recorded with the payer's cash-in counted for the day (as a cash-in charge counts at creation). */
  private async recordBankCharge(ref: DueDateChargeRef, cobv: CobVCompleta): Promise<void> {
    const pix = paymentOf(cobv);
    if (!pix) return;
    const paidAt = new Date(pix.horario);
    // The bank stamps a payment with its now, which for a sandbox tenant is the test clock's: its Brasília day is the day paid.
    const day = brasiliaDate(paidAt);
    const outcome = await this.execute(
      ref.tenant,
      ref.transactionId,
      { type: 'RecordPayment', payment: { paid_at: isoUtc(paidAt), day, e2e_id: pix.endToEndId } },
      (charge) => [reserveLimitUsage(limitedTransaction(ref.tenant, charge, charge.paid?.final ?? 0, day), undefined)],
    );
    if (!outcome.ok) refuse(outcome.refusal);
  }

  private execute(tenant: Tenant, transactionId: string, command: DueDateChargeCommand, extra?: (charge: DueDateChargeRecordData) => SqlStatement[]) {
    return this.eventStore.handle(dueDateCharge, command, {
      streamId: dueDateChargeStreamId(tenant, transactionId),
      streamType: DUE_DATE_CHARGE_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.payments.name,
      project: (events, state) => [...projectDueDateCharge(events, state), ...(extra && state.status !== 'NONE' ? extra(state.charge) : [])],
    });
  }

  private bank(tenant: Tenant): PixBankClient {
    return this.banks.of(tenant, this.clock.now(tenant));
  }

  private response(charge: DueDateChargeRecordData, today: string): DueDateChargeResponse {
    const response = dueDateChargeResponse(charge, today);
    return response.pix_copy_paste === null ? response : { ...response, qrcode: this.qrCodes.of(response.pix_copy_paste) };
  }
}

/** A payment of the charge as the payer's cash-in of the day, for their customer limit. */
const limitedTransaction = (tenant: Tenant, charge: DueDateChargeRecordData, amountCentavos: number, day: string): LimitedTransaction => ({
  tenant,
  documentNumber: charge.payer.document_number,
  type: 'cashin',
  amountCentavos,
  day,
});

/** The settled payment of a charge, if the bank has one (CONCLUIDA, with `pix`). */
const paymentOf = (cobv: CobVCompleta): PixRecebido | undefined => (cobv.status === 'CONCLUIDA' ? cobv.pix?.[0] : undefined);

/** PUT /cobv/{txid} (and the terms of a PATCH): the due date and validity, the payer as BCB names them, the rules. */
function bankChargeOf(r: Pick<DueDateChargeRequest, keyof DueDateChargeRequest>): CobVSolicitada {
  const p = r.payer;
  return {
    calendario: { dataDeVencimento: r.due_date, validadeAposVencimento: r.days_valid_after_due },
    devedor: {
      ...toBankDocument(p.document_number),
      nome: p.name,
      ...(p.email !== null && { email: p.email }),
      ...(p.street !== null && { logradouro: p.street }),
      ...(p.city !== null && { cidade: p.city }),
      ...(p.state !== null && { uf: p.state }),
      ...(p.postal_code !== null && { cep: p.postal_code }),
    },
    valor: toCobVValor(r),
    chave: PIX_RECEIVER_KEY,
    ...(r.description && { solicitacaoPagador: r.description }),
  };
}

/** The expiry sweep: from the read model's last payable day, so a restart misses no charge. */
export const dueDateChargeExpiry = (charges: DueDateCharges): PeriodicTask => new PeriodicTask('DueDateChargeExpiry', 1000, () => charges.expireDue(50));
