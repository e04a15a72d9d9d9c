import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AccountProfile,
  Environment,
  PAYOUT_STATUS_CODES,
  PayoutRecordData,
  payoutResponse,
  PayoutResponse,
  PayoutRoute,
  PayoutStatus,
  PayoutStatusCode,
  reply,
  ServiceReply,
  Tenant,
  Topics,
  PayoutReturnData,
  recordIdOf,
  validateCreatePayout,
  validateSandboxPayoutReturn,
} from '@pixauto/contracts';
import { Banks, DevolucaoPagamento, Pagamento, PagamentoSolicitado, payoutStatusOf, PixBankClient, toBankPayoutStatus, valorToCentavos } from '@pixauto/bank';
import { isRefusal, Messages, notFound, RefusalException, refuse, validation } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import {
  BankPayoutNotice,
  claimUnsettledPayouts,
  findPayout,
  findPayoutById,
  isLimitUsageExhausted,
  LimitedTransaction,
  movesPayout,
  nextPayoutId,
  payout,
  PAYOUT_STREAM,
  PayoutCommand,
  payoutReturnRefundIdTaken,
  payoutStreamId,
  payoutTransactionIdTaken,
  projectPayout,
  quantityExceeded,
  nextRefundId,
  refundIdTaken,
  reserveLimitUsage,
} from '@pixauto/payments';
import { brasiliaDate, Clock, documentType, isoUtc } from '@pixauto/pix';
import { CLOCK, PeriodicTask } from '@pixauto/runtime';
import { CustomerLimits } from './customer-limits';

const UNIQUE_VIOLATION = '23505';
/** The bank's name for a payout: ours, with the environment, so production and sandbox never share one. */
export const idEnvioOf = (environment: Environment, id: number): string => `PIXAUTO${environment === 'production' ? 'P' : 'S'}${String(id).padStart(12, '0')}`;
const idOfEnvio = (idEnvio: string): { environment: Environment; id: number } | undefined => {
  const match = /^PIXAUTO([PS])(\d{12})$/.exec(idEnvio);
  return match ? { environment: match[1] === 'P' ? 'production' : 'sandbox', id: Number(match[2]) } : undefined;
};

/** What the bank answers or notifies of a payout, recorded on its stream (a notice that moves nothing records nothing). */
@Injectable()
export class PayoutBankNotices {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly banks: Banks,
  ) {}

  /** The bank as the tenant sees it: a sandbox tenant's calls carry its test clock's now. */
  bank(tenant: Tenant): PixBankClient {
    return this.banks.of(tenant, this.clock.now(tenant));
  }

  payer(tenant: Tenant) {
    return this.banks.sandboxPayer.at(this.clock.now(tenant));
  }

  /** The bank's view of the payout: its status, then each return it carries (the known ones change nothing). */
  async record(tenant: Tenant, id: number, answer: Pagamento): Promise<void> {
    const now = this.clock.now(tenant);
    const sandboxNow = tenant.environment === 'sandbox' ? isoUtc(now) : undefined;
    const known = new Set(((await findPayout(this.dataSource.manager, tenant, id))?.returns ?? []).map((r) => r.rtr_id));
    const commands: PayoutCommand[] = [{ type: 'RecordBankNotice', notice: noticeOf(answer, sandboxNow) }];
    for (const d of answer.devolucoes ?? []) {
      if (!known.has(d.rtrId)) commands.push({ type: 'RecordReturn', return: returnOf(await nextRefundId(this.dataSource.manager), d, sandboxNow) });
    }
    for (const command of commands) {
      const outcome = await this.eventStore.handle(payout, command, {
        streamId: payoutStreamId(tenant, id),
        streamType: PAYOUT_STREAM,
        tenant,
        now,
        topic: Topics.payouts.name,
        project: projectPayout,
      });
      if (!outcome.ok) refuse(outcome.refusal);
    }
  }

  /** A notification from the bank (its webhook): the payout it names, if it is ours in that environment. */
  async recordNotified(environment: Environment, answer: Pagamento): Promise<void> {
    const named = idOfEnvio(answer.idEnvio);
    if (!named || named.environment !== environment) return;
    const found = await findPayoutById(this.dataSource.manager, named.id);
    // The read model commits with the events: a notice it shows as already recorded needs no stream read.
    if (!found || found.tenant.environment !== environment) return;
    const known = new Set((found.payout.returns ?? []).map((r) => r.rtr_id));
    const news = movesPayout(found.payout.status, payoutStatusOf(answer.status)) || (answer.devolucoes ?? []).some((d) => !known.has(d.rtrId));
    if (news) await this.record(found.tenant, named.id, answer);
  }
}

/** A return the bank reports, in our words (the sandbox's time is the tenant's now, as for payments). */
const returnOf = (id: number, d: DevolucaoPagamento, sandboxNow: string | undefined): PayoutReturnData => ({
  id,
  refund_id: d.id,
  amount_centavos: valorToCentavos(d.valor) ?? 0,
  rtr_id: d.rtrId,
  returned_at: sandboxNow ?? isoUtc(new Date(d.horario.liquidacao)),
});

/** The bank's payout in our words. In the sandbox the payment time is the tenant's now (its clock may run ahead of the bank's). */
function noticeOf(answer: Pagamento, sandboxNow: string | undefined): BankPayoutNotice {
  const to = answer.destinatario;
  return {
    status: payoutStatusOf(answer.status),
    name: to?.nome ?? null,
    bank: {
      bank_name: to?.nomeBanco ?? null,
      bank_code: to?.codigoBanco ?? null,
      ispb: to?.ispb ?? null,
      account_agency: to?.agencia ?? null,
      account_number: to?.conta ?? null,
    },
    e2e: answer.endToEndId ?? null,
    psp_id: answer.idEnvio,
    paid_at: sandboxNow ?? (answer.horario?.liquidacao ? isoUtc(new Date(answer.horario.liquidacao)) : null),
    reason: answer.motivo ?? null,
  };
}

const SENDER_INTERVAL_MS = 250;
const SENDER_BATCH = 64;
/** A payout processing this long without a notice is asked about (a lost notification must not leave it processing). */
const RECONCILE_AFTER_MS = 10_000;

/**
 * Hands created payouts to the bank (PUT /pagamentos/{idEnvio}, idempotent: a repeat after a crash gets the same
 * payment back) and asks about those processing too long. Works from the payouts table: a restart loses nothing.
 */
@Injectable()
export class PayoutSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PayoutSender');
  private readonly task = new PeriodicTask('payout-sender', SENDER_INTERVAL_MS, () => this.run());

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly notices: PayoutBankNotices,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  /** First at shutdown (GracefulShutdown): what it commits is flushed from the outbox after it. */
  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** PUT the payout at the bank and record its answer; the bank's refusal (a 4xx) rejects the payout (status 3). */
  async send(tenant: Tenant, record: PayoutRecordData): Promise<void> {
    const idEnvio = idEnvioOf(tenant.environment, record.id);
    let answer: Pagamento;
    try {
      answer = await this.notices.bank(tenant).createPayout(idEnvio, bankPayoutOf(record));
    } catch (error) {
      const refusal = error instanceof RefusalException ? error.refusal : undefined;
      if (!refusal || refusal.kind !== 'provider') throw error; // unreachable: left at 0, sent again on the next run
      answer = {
        idEnvio,
        status: 'NAO_REALIZADO',
        motivo: refusal.message,
        valor: bankAmount(record.amount_centavos),
        horario: { solicitacao: isoUtc(this.clock.now(tenant)) },
      } as Pagamento;
    }
    await this.notices.record(tenant, record.id, answer);
  }

  /** One run: claims (replicas share the payouts, none sent twice at once) and works on what it claimed. */
  private async run(): Promise<boolean> {
    const created = await claimUnsettledPayouts(this.dataSource.manager, 0, 0, SENDER_BATCH);
    await created.hold((payouts) =>
      Promise.all(
        payouts.map(({ tenant, payout: p }) =>
          this.send(tenant, p).catch((error: unknown) => this.logger.warn(`payout ${p.id} not sent yet: ${describe(error)}`)),
        ),
      ),
    );
    const stale = await claimUnsettledPayouts(this.dataSource.manager, 4, RECONCILE_AFTER_MS, SENDER_BATCH);
    await stale.hold((payouts) =>
      Promise.all(
        payouts.map(({ tenant, payout: p }) =>
          this.notices
            .bank(tenant)
            .getPayout(idEnvioOf(tenant.environment, p.id))
            .then((answer) => this.notices.record(tenant, p.id, answer))
            .catch((error: unknown) => this.logger.warn(`payout ${p.id} not reconciled yet: ${describe(error)}`)),
        ),
      ),
    );
    return created.items.length === SENDER_BATCH;
  }
}

const describe = (error: unknown): string =>
  error instanceof RefusalException || isRefusal(error) ? String((error as RefusalException).message) : String(error);
const bankAmount = (centavos: number): string => (centavos / 100).toFixed(2);

function bankPayoutOf(record: PayoutRecordData): PagamentoSolicitado {
  const favorecido = record.document_type === 'CPF' ? { nome: record.name, cpf: record.document_number } : { nome: record.name, cnpj: record.document_number };
  const destinatario =
    record.pix_key !== null
      ? { chave: record.pix_key }
      : { ispb: record.bank.ispb as string, agencia: record.bank.account_agency as string, conta: record.bank.account_number as string };
  return { valor: bankAmount(record.amount_centavos), destinatario, favorecido };
}

/** Payouts (cash-out, docs/decisions/payouts.md): created here (status 0), then settled by the bank behind us. */
@Injectable()
export class Payouts {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly limits: CustomerLimits,
    private readonly sender: PayoutSender,
    private readonly notices: PayoutBankNotices,
  ) {}

  /** POST /v2/payout/pix and POST /v2/payout: nothing is created (no event, row or bank call) when refused. */
  async create(tenant: Tenant, account: AccountProfile | undefined, route: PayoutRoute, body: unknown): Promise<ServiceReply> {
    const request = validateCreatePayout(route, body);
    if (!request.ok) return refuse(request.refusal);
    const r = request.value;
    if (await payoutTransactionIdTaken(this.dataSource.manager, tenant, r.transaction_id)) return refuse(validation(Messages.transactions.transactionIdTaken));
    const now = this.clock.now(tenant);
    const transaction: LimitedTransaction = {
      tenant,
      documentNumber: r.document_number,
      type: 'cashout',
      amountCentavos: r.amount_centavos,
      day: brasiliaDate(now),
    };
    const limit = await this.limits.admit(transaction);
    const account_ = 'pix_key' in r.destination ? undefined : r.destination;
    const record: PayoutRecordData = {
      id: await nextPayoutId(this.dataSource.manager),
      transaction_id: r.transaction_id,
      name: r.name,
      document_number: r.document_number,
      document_type: documentType(r.document_number) ?? 'CPF',
      amount_centavos: r.amount_centavos,
      status: PayoutStatus.created,
      pix_key: 'pix_key' in r.destination ? r.destination.pix_key : null,
      bank: {
        type: 'PIX',
        bank_name: null,
        bank_code: null,
        ispb: account_?.ispb ?? null,
        account_agency: account_?.account_agency ?? null,
        account_number: account_?.account_number ?? null,
      },
      webhook: r.webhook,
      provider: account?.cashin_provider ?? 'PROVIDER_A',
      created_at: isoUtc(now),
      paid_at: null,
      e2e: null,
      psp_id: null,
    };
    try {
      await this.eventStore.handle(
        payout,
        { type: 'CreatePayout', payout: record },
        this.context(tenant, record.id, now, [reserveLimitUsage(transaction, limit)]),
      );
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === UNIQUE_VIOLATION && constraint === 'payouts_transaction_id') return refuse(validation(Messages.transactions.transactionIdTaken));
      // A concurrent payout took the customer's last unit of the day between the first look and this append.
      if (isLimitUsageExhausted(error) && limit?.mechanism === 'quantity') return refuse(quantityExceeded(transaction, limit.quantity));
      throw error;
    }
    return reply(payoutResponse(record), 201);
  }

  /** POST /v2/sandbox/payouts/:id/status (sandbox): the bank behind the sandbox moves it, we record its answer. */
  async sandboxStatus(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<PayoutResponse> {
    const id = recordIdOf(idParam) ?? refuse(notFound(Messages.payouts.notFound));
    const to = (body as { status?: unknown } | null)?.status;
    if (typeof to !== 'number' || !PAYOUT_STATUS_CODES.includes(to as PayoutStatusCode) || to === PayoutStatus.created)
      return refuse(validation(Messages.payouts.statusInvalid));
    const state = await this.eventStore.load(payout, payoutStreamId(tenant, id));
    const check = payout.decide({ type: 'CheckSandboxStatusChange', to: to as PayoutStatusCode }, state);
    if (!check.ok) return refuse(check.refusal);
    if (state.status === 'NONE') return refuse(notFound(Messages.payouts.notFound));
    // A payout the sender has not handed to the bank yet is handed now, so the bank has it to move.
    if (state.payout.status === PayoutStatus.created) await this.sender.send(tenant, state.payout);
    const answer = await this.notices.payer(tenant).setPayoutStatus(idEnvioOf(tenant.environment, id), toBankPayoutStatus(to as PayoutStatusCode));
    await this.notices.record(tenant, id, answer);
    return (await findPayout(this.dataSource.manager, tenant, id).then((p) => p && payoutResponse(p))) ?? refuse(notFound(Messages.payouts.notFound));
  }

  /**
   * POST /v2/sandbox/payouts/:id/return (sandbox): the receiving bank sends a completed payout back, whole or
   * `amount`, under `refund_id` (letters and digits) or its own return id; we record its answer. 200 the payout.
   */
  async sandboxReturn(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<PayoutResponse> {
    const id = recordIdOf(idParam) ?? refuse(notFound(Messages.payouts.notFound));
    const request = validateSandboxPayoutReturn(body);
    if (!request.ok) return refuse(request.refusal);
    const { amount_centavos: amount, refund_id: refundId } = request.value;
    const state = await this.eventStore.load(payout, payoutStreamId(tenant, id));
    const check = payout.decide({ type: 'CheckSandboxReturn', amount_centavos: amount }, state);
    if (!check.ok) return refuse(check.refusal);
    const db = this.dataSource.manager;
    if (refundId !== undefined && ((await refundIdTaken(db, tenant, refundId)) || (await payoutReturnRefundIdTaken(db, tenant, refundId))))
      return refuse(validation(Messages.refunds.refundIdTaken));
    const answer = await this.notices.payer(tenant).returnPayout(idEnvioOf(tenant.environment, id), {
      ...(amount !== undefined && { valor: bankAmount(amount) }),
      ...(refundId !== undefined && { id: refundId }),
    });
    await this.notices.record(tenant, id, answer);
    return (await findPayout(db, tenant, id).then((p) => p && payoutResponse(p))) ?? refuse(notFound(Messages.payouts.notFound));
  }

  context(tenant: Tenant, id: number, now: Date, extra: ReturnType<typeof reserveLimitUsage>[] = []) {
    return {
      streamId: payoutStreamId(tenant, id),
      streamType: PAYOUT_STREAM,
      tenant,
      now,
      topic: Topics.payouts.name,
      project: (events: Parameters<typeof projectPayout>[0], state: Parameters<typeof projectPayout>[1]) => [...projectPayout(events, state), ...extra],
    };
  }
}
