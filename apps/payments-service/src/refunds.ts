import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Environment,
  paginationOf,
  RefundListResponse,
  RefundResponse,
  Tenant,
  Topics,
  validateCreateRefund,
  validateListRefunds,
  validatePixChargeId,
  validateSandboxRefund,
} from '@pixauto/contracts';
import { Banks, centavosToValor, Devolucao, PixRecebido } from '@pixauto/bank';
import { Messages, notFound, Refusal, RefusalException, refuse, validation } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import {
  claimRefundChecks,
  findPixChargeById,
  findRefund,
  findRefundAtBank,
  findRefundById,
  listRefunds,
  nextRefundId,
  PIX_CHARGE_STREAM,
  pixCharge,
  PixChargeCommand,
  pixChargeStreamId,
  projectPixCharge,
  RefundOutcome,
  RefundRef,
  refundIdTaken,
} from '@pixauto/payments';
import { Clock, isoUtc } from '@pixauto/pix';
import { CLOCK, PeriodicTask } from '@pixauto/runtime';

const UNIQUE_VIOLATION = '23505';

/** The bank's name for our refund (BCB DevolucaoId, 1 to 35 letters and digits), from our id and environment: 29 characters. */
export const bankRefundIdOf = (environment: Environment, id: number): string =>
  `PIXAUTOR${environment === 'production' ? 'P' : 'S'}${String(id).padStart(20, '0')}`;

/**
 * Refunds of paid cash-in charges (docs/decisions/refunds.md). A refund is appended to its charge's stream first (the sum of
 * refunds is checked there, under the stream's optimistic concurrency), then asked of the bank
 * (`PUT /pix/{e2eid}/devolucao/{id}`). Money goes back only once: the bank's id is ours and a PUT is never repeated
 * without a GET first. What the bank decides reaches us by its Pix notification, or by the reconciler's next look.
 */
@Injectable()
export class Refunds {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** POST /v2/transactions/refund → 201 refund. */
  async create(tenant: Tenant, body: unknown): Promise<RefundResponse> {
    const request = validateCreateRefund(body);
    if (!request.ok) return refuse(request.refusal);
    const r = request.value;
    if (await refundIdTaken(this.dataSource.manager, tenant, r.refund_id)) return refuse(validation(Messages.refunds.refundIdTaken));
    const charge = 'id' in r.charge ? await findPixChargeById(this.dataSource.manager, tenant, r.charge.id) : { transactionId: r.charge.transaction_id };
    if (!charge) return refuse(notFound(Messages.refunds.transactionNotFound));
    return this.request(tenant, charge.transactionId, r.refund_id, r.amount_centavos);
  }

  /** GET /v2/transactions/refunds: the period list (as the recurrences') of the refunds of Pix charges. */
  async list(tenant: Tenant, query: unknown): Promise<RefundListResponse> {
    const request = validateListRefunds(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, refunds } = await listRefunds(this.dataSource.manager, tenant, request.value);
    return { pagination: paginationOf(request.value, total), refunds };
  }

  /** POST /v2/sandbox/transactions/:id/refund: a refund the service starts itself (no refund_id). */
  async sandboxCreate(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<RefundResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const request = validateSandboxRefund(body);
    if (!request.ok) return refuse(request.refusal);
    const charge = (await findPixChargeById(this.dataSource.manager, tenant, id.value)) ?? refuse(notFound(Messages.refunds.transactionNotFound));
    return this.request(tenant, charge.transactionId, null, request.value.amount_centavos);
  }

  /** POST /v2/sandbox/refunds/:id/settle: the bank liquidates a PROCESSING refund now (its receipt exists from then on). */
  async sandboxSettle(tenant: Tenant, idParam: string | undefined): Promise<RefundResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const ref = (await findRefundById(this.dataSource.manager, tenant, id.value)) ?? refuse(notFound(Messages.refunds.notFound));
    await this.check({ ...ref, settleDue: true });
    return (await findRefund(this.dataSource.manager, tenant, ref.id)) ?? refuse(notFound(Messages.refunds.notFound));
  }

  /** The bank's Pix notification: each refund it names is looked up at the bank (a notification is a cue, never the proof). */
  async recordNotified(environment: Environment, pix: PixRecebido): Promise<void> {
    for (const devolucao of pix.devolucoes ?? []) {
      const ref = await findRefundAtBank(this.dataSource.manager, environment, pix.endToEndId, devolucao.id);
      if (ref) await this.check(ref);
    }
  }

  /** The reconciler's work: PROCESSING refunds whose next look at the bank has come. True when there may be more. */
  async checkDue(limit: number): Promise<boolean> {
    const due = await claimRefundChecks(this.dataSource.manager, this.clock.now(), limit);
    await Promise.all(due.map((ref) => this.check(ref).catch((error: unknown) => this.logger.warn(`refund ${ref.id} not checked: ${String(error)}`))));
    return due.length === limit;
  }

  private async request(tenant: Tenant, transactionId: string, refundId: string | null, amountCentavos: number | undefined): Promise<RefundResponse> {
    const id = await nextRefundId(this.dataSource.manager);
    const command: PixChargeCommand = {
      type: 'RequestRefund',
      refund: {
        id,
        refund_id: refundId,
        amount_centavos: amountCentavos,
        bank_id: bankRefundIdOf(tenant.environment, id),
        created_at: isoUtc(this.clock.now(tenant)),
      },
    };
    let outcome;
    try {
      outcome = await this.execute(tenant, transactionId, command);
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      // The same refund_id on another charge of the tenant, committed between the first look and this append.
      if (code === UNIQUE_VIOLATION && constraint === 'pix_refunds_refund_id') return refuse(validation(Messages.refunds.refundIdTaken));
      throw error;
    }
    if (!outcome.ok) return refuse(outcome.refusal);
    const state = outcome.state;
    if (state.status === 'NONE') return refuse(notFound(Messages.refunds.transactionNotFound)); // unreachable: a refund was just appended
    const refund = state.refunds.find((r) => r.id === id) ?? refuse(notFound(Messages.refunds.notFound));
    const e2eId = state.charge.e2e_id as string;
    try {
      const devolucao = await this.banks
        .of(tenant, this.clock.now(tenant))
        .requestRefund(e2eId, refund.bank_id, { valor: centavosToValor(refund.amount_centavos) });
      await this.recordAnswer(tenant, transactionId, id, devolucao);
    } catch (error) {
      const refusal = bankRefusalOf(error);
      if (!refusal) {
        // Unreachable or unsure: the refund stays PROCESSING and the reconciler asks the bank (GET, then PUT if unknown).
        this.logger.warn(`refund ${id} not confirmed by the bank yet: ${String(error)}`);
      } else {
        await this.recordOutcome(tenant, transactionId, id, { status: 'FAILED', reason: refusal.message });
        return refuse(refusal);
      }
    }
    return (await findRefund(this.dataSource.manager, tenant, id)) ?? refuse(notFound(Messages.refunds.notFound));
  }

  /**
   * One look at the bank for a PROCESSING refund: liquidated now when its sandbox time has come, sent when the bank
   * does not know it (the request crashed or the bank was down), and its outcome recorded when there is one.
   */
  private async check(ref: RefundRef): Promise<void> {
    const state = await this.eventStore.load(pixCharge, pixChargeStreamId(ref.tenant, ref.chargeTransactionId));
    const refund = state.status === 'NONE' ? undefined : state.refunds.find((r) => r.id === ref.id);
    if (refund?.status !== 'PROCESSING') return;
    const now = this.clock.now(ref.tenant);
    const bank = this.banks.of(ref.tenant, now);
    let devolucao = await bank.getRefund(ref.e2eId, ref.bankId).catch(unlessNotFound);
    if (!devolucao) {
      try {
        devolucao = await bank.requestRefund(ref.e2eId, ref.bankId, { valor: centavosToValor(refund.amount_centavos) });
      } catch (error) {
        const refusal = bankRefusalOf(error);
        if (!refusal) throw error;
        return this.recordOutcome(ref.tenant, ref.chargeTransactionId, ref.id, { status: 'FAILED', reason: refusal.message });
      }
    }
    if (ref.settleDue && devolucao.status === 'EM_PROCESSAMENTO') devolucao = await this.banks.sandboxPayer.at(now).settleRefund(ref.e2eId, ref.bankId);
    await this.recordAnswer(ref.tenant, ref.chargeTransactionId, ref.id, devolucao);
  }

  private async recordAnswer(tenant: Tenant, transactionId: string, id: number, devolucao: Devolucao): Promise<void> {
    if (devolucao.status === 'DEVOLVIDO')
      await this.recordOutcome(tenant, transactionId, id, {
        status: 'REFUNDED',
        rtr_id: devolucao.rtrId,
        refunded_at: isoUtc(new Date(devolucao.horario.liquidacao ?? devolucao.horario.solicitacao)),
      });
    else if (devolucao.status === 'NAO_REALIZADO')
      await this.recordOutcome(tenant, transactionId, id, { status: 'FAILED', reason: devolucao.motivo ?? 'NAO_REALIZADO' });
  }

  private async recordOutcome(tenant: Tenant, transactionId: string, refundId: number, outcome: RefundOutcome): Promise<void> {
    const recorded = await this.execute(tenant, transactionId, { type: 'RecordRefundOutcome', refundId, outcome });
    if (!recorded.ok) refuse(recorded.refusal);
  }

  private execute(tenant: Tenant, transactionId: string, command: PixChargeCommand) {
    return this.eventStore.handle(pixCharge, command, {
      streamId: pixChargeStreamId(tenant, transactionId),
      streamType: PIX_CHARGE_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.payments.name,
      project: projectPixCharge,
    });
  }
}

/** The bank's own refusal of a request (a 4xx ProviderError); undefined for a bank that could not be reached or failed. */
function bankRefusalOf(error: unknown): Extract<Refusal, { kind: 'provider' }> | undefined {
  if (!(error instanceof RefusalException)) return undefined;
  const refusal = error.refusal;
  return refusal.kind === 'provider' && refusal.status >= 400 && refusal.status < 500 ? refusal : undefined;
}

/** A GET the bank answers 404: undefined; anything else is thrown on. */
function unlessNotFound(error: unknown): undefined {
  if (error instanceof RefusalException && error.refusal.kind === 'provider' && error.refusal.status === 404) return undefined;
  throw error;
}

/** The refund reconciler: works from the read model's next_check_at, so a restart (even kill -9) forgets no refund. */
export const refundReconciler = (refunds: Refunds): PeriodicTask => new PeriodicTask('RefundReconciler', 500, () => refunds.checkDue(50));
