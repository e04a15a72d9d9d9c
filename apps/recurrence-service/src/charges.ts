import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChargeResponse, paginationOf, Pagination, Tenant, Topics, validateCancelCharge, validateChargeDate, validateListChargesDue } from '@pixauto/contracts';
import { Banks, centavosToValor, CobRCompleta, CobRNotification, PixBankClient, SimulatedPayer } from '@pixauto/bank';
import { Messages, notFound, RefusalException, refuse, validation } from '@pixauto/errors';
import { ConcurrencyError, EventStore, stateOf } from '@pixauto/event-store';
import { brasiliaStartOfDay, Clock, compareDates, nextBusinessDay } from '@pixauto/pix';
import {
  Charge,
  ChargeCommand,
  cycleTxid,
  CyclePlan,
  claimDueChargeCreations,
  claimDueSandboxAttempts,
  DueCursor,
  findCharge,
  findChargeByTxid,
  findRecurrence,
  listCharges,
  listChargesDue,
  nextCycle,
  planDueCharges,
  PlannedCharge,
  postponeNextCharge,
  projectRecurrence,
  recordRecurrenceEvents,
  Recurrence,
  recurrence,
  RECURRENCE_STREAM,
  RecurrenceEvent,
  recurrenceStreamId,
} from '@pixauto/recurrences';
import { CLOCK, forEachConcurrently } from '@pixauto/runtime';
import { Recurrences } from './recurrences';

/** The receiving account the debits are paid into: the PSP's own (a merchant's account is not part of the account yet). */
const RECEIVER = {
  agencia: process.env.PIX_RECEIVER_AGENCY ?? '0001',
  conta: process.env.PIX_RECEIVER_ACCOUNT ?? '1234567',
  tipoConta: 'CORRENTE' as const,
};
/** How many recurrences the scheduler debits at the bank at once: round trips overlap, each one's cycles stay in order. */
const SCHEDULER_CONCURRENCY = Number(process.env.CHARGE_SCHEDULER_CONCURRENCY ?? 32);
/** How many recurrences' charges are recorded by one append (one statement, one commit). */
const APPEND_BATCH = Number(process.env.CHARGE_SCHEDULER_BATCH ?? 250);
/** Batches worked on at once (measured: 4 ~10% faster than 2, more no better). */
const BATCHES_AT_ONCE = 4;

const isTxidTaken = (error: unknown): boolean =>
  error instanceof RefusalException &&
  error.refusal.kind === 'provider' &&
  (error.refusal.violations ?? []).some((v) => v.reason.includes('txid encontra-se em uso'));

/**
 * The charges of recurrences (docs/decisions/charges.md): the cycle scheduler, the merchant's charge
 * operations, and what the bank reports. As with recurrences, the bank hears first and our events follow.
 */
@Injectable()
export class Charges {
  private readonly logger = new Logger('Charges');

  constructor(
    private readonly recurrences: Recurrences,
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // ---- the merchant's operations ----

  async list(tenant: Tenant, recurrenceId: string): Promise<{ charges: ChargeResponse[] }> {
    if (!(await findRecurrence(this.dataSource.manager, tenant, recurrenceId))) return refuse(notFound(Messages.recurrences.notFound));
    return { charges: await listCharges(this.dataSource.manager, tenant, recurrenceId) };
  }

  /** The charges of all the account's recurrences due in a period, one page: what an overview reads in one request. */
  async listDue(tenant: Tenant, query: unknown): Promise<{ pagination: Pagination; charges: ChargeResponse[] }> {
    const request = validateListChargesDue(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, charges } = await listChargesDue(this.dataSource.manager, tenant, request.value);
    return { pagination: paginationOf(request.value, total), charges };
  }

  async get(tenant: Tenant, chargeId: string): Promise<ChargeResponse> {
    return (await findCharge(this.dataSource.manager, tenant, chargeId)) ?? refuse(notFound(Messages.charges.notFound));
  }

  /** PATCH {status: CANCELLED}: decided here first, so a refused cancel never reaches the bank. */
  async cancel(tenant: Tenant, chargeId: string, body: unknown): Promise<ChargeResponse> {
    const request = validateCancelCharge(body);
    if (!request.ok) return refuse(request.refusal);
    const { r, charge } = await this.loadCharge(tenant, chargeId);
    const command: ChargeCommand = { type: 'CancelCharge', charge_id: chargeId, by: 'merchant' };
    if (this.decide(r, command) > 0) {
      await this.bankAt(tenant).cancelRecurringCharge(charge.txid);
      await this.recurrences.execute(tenant, r.data.recurrence_id, command);
    }
    return this.get(tenant, chargeId);
  }

  /**
   * A new due date for a SCHEDULED charge: after today and before the next cycle's date. The bank has no
   * reschedule: its debit is cancelled and a new one created for the same cycle.
   */
  async reschedule(tenant: Tenant, chargeId: string, body: unknown): Promise<ChargeResponse> {
    const request = validateChargeDate(body, this.clock.today(tenant));
    if (!request.ok) return refuse(request.refusal);
    const { r, charge } = await this.loadCharge(tenant, chargeId);
    const dueDate = r.data.business_day_adjust ? nextBusinessDay(request.value.date) : request.value.date;
    const txid = cycleTxid(r.data.recurrence_id, charge.nominal_date ?? '', charge.reschedules + 1);
    const command: ChargeCommand = { type: 'RescheduleCharge', charge_id: chargeId, due_date: dueDate, txid };
    if (this.decide(r, command) === 0) return this.get(tenant, chargeId);
    const following = charge.cycle === null ? null : nextCycle(r.data, { cycle: charge.cycle, nominal_date: charge.nominal_date ?? '' }, '0000-01-01');
    if (following && compareDates(dueDate, following.nominal_date) >= 0) return refuse(validation(Messages.charges.notBeforeNextCycle(following.nominal_date)));

    const bank = this.bankAt(tenant);
    await bank.cancelRecurringCharge(charge.txid);
    try {
      await bank.createRecurringCharge(txid, this.debit(r, dueDate));
    } catch (error) {
      // The old debit is gone at the bank and no new one took its place: say so rather than show a charge that will never be debited.
      await this.recurrences.execute(tenant, r.data.recurrence_id, { type: 'CancelCharge', charge_id: chargeId, by: 'bank' }, { ignoreRefusals: true });
      throw error;
    }
    await this.recurrences.execute(tenant, r.data.recurrence_id, command);
    return this.get(tenant, chargeId);
  }

  /** A retry of a failed debit: the settlement system's rules decide (ProviderError with violations when refused). */
  async retry(tenant: Tenant, chargeId: string, body: unknown): Promise<ChargeResponse> {
    const request = validateChargeDate(body);
    if (!request.ok) return refuse(request.refusal);
    const { r, charge } = await this.loadCharge(tenant, chargeId);
    const command: ChargeCommand = { type: 'ScheduleRetry', charge_id: chargeId, date: request.value.date };
    this.decide(r, command);
    await this.bankAt(tenant).retryRecurringCharge(charge.txid, request.value.date);
    await this.recurrences.execute(tenant, r.data.recurrence_id, command);
    return this.get(tenant, chargeId);
  }

  /** Sandbox: the payer's bank debits now (pay) or refuses now (fail), whatever the date. */
  async sandboxSettle(tenant: Tenant, chargeId: string, outcome: 'pay' | 'fail'): Promise<ChargeResponse> {
    const { charge } = await this.loadCharge(tenant, chargeId);
    if (charge.type === 'activation') return refuse(validation(Messages.charges.activationBySandboxPayer));
    if (charge.status !== 'SCHEDULED') return refuse(validation(Messages.charges.notPending(charge.status)));
    const payer = this.payerAt(this.clock.now(tenant));
    const cobr = outcome === 'pay' ? await payer.payRecurringCharge(charge.txid) : await payer.failRecurringCharge(charge.txid);
    await this.applyBankCharge(tenant.environment, cobr);
    return this.get(tenant, chargeId);
  }

  // ---- the scheduler ----

  /**
   * Creates the cycle charges that are due, at most `limit` recurrences per run. BATCHES_AT_ONCE lanes each claim
   * their next batch of due recurrences as soon as they are free, so some batches are at the bank while others read
   * or append, with no pause between pages. A claim skips the recurrences another replica holds and is released
   * when its batch is recorded, so replicas share the due work and never debit one cycle twice. A recurrence is looked at once per run: each claim starts after the last
   * one, so neither what is in flight nor what is still due after its batch (its bank call failed, say) is claimed
   * again before the next run. A batch after which nothing moved on (the bank down, say) ends the run, which then
   * waits for the next. True when more may be waiting.
   */
  async issueDueCharges(limit = 20_000): Promise<boolean> {
    let cursor: DueCursor | undefined;
    let taken = 0;
    let stalled = false;
    // One lane claims at a time, each after the last one claimed, so that two never take the same recurrences.
    let claiming: Promise<unknown> = Promise.resolve();
    const claim = (size: number) => {
      const claimed = claiming.then(async () => {
        const batch = await claimDueChargeCreations(this.dataSource.manager, this.clock.now(), size, cursor);
        if (batch.items.length > 0) cursor = batch.items[batch.items.length - 1].cursor;
        return batch;
      });
      claiming = claimed.catch(() => undefined);
      return claimed;
    };
    const lane = async (): Promise<void> => {
      while (taken < limit && !stalled) {
        const size = Math.min(APPEND_BATCH, limit - taken);
        taken += size;
        const batch = await claim(size).catch((error: unknown) => {
          stalled = true; // the database unreachable, say: the other lanes stop too
          throw error;
        });
        taken -= size - batch.items.length;
        if (batch.items.length === 0) return;
        const finished = await batch
          .hold((due) => this.issueBatch(due))
          .catch((error: unknown) => {
            this.logger.warn(`a batch of ${batch.items.length} recurrences failed, will retry: ${String(error)}`);
            return 0;
          });
        if (finished === 0) stalled = true;
      }
    };
    // Every lane ends before the run does, so that no batch outlives it.
    const lanes = await Promise.allSettled(Array.from({ length: BATCHES_AT_ONCE }, lane));
    const failed = lanes.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    return taken >= limit && !stalled;
  }

  /**
   * The due charges of a batch of recurrences: planned from one read of their streams, debited at the bank
   * (SCHEDULER_CONCURRENCY recurrences at once, each one's cycles in order), then recorded in one append; how many
   * recurrences are no longer due after it. Safe to run twice at once or again after a crash: the ids are derived
   * from the cycle, the bank refuses a txid twice, the append refuses a stream that moved. When one did (a
   * merchant's change, another scheduler), the batch is recorded one recurrence at a time instead, each command
   * decided again on its stream as it is.
   */
  private async issueBatch(due: { tenant: Tenant; recurrenceId: string }[]): Promise<number> {
    const streams = await this.eventStore.readStreams<RecurrenceEvent>(due.map(({ tenant, recurrenceId }) => recurrenceStreamId(tenant, recurrenceId)));
    const work = due.map(({ tenant, recurrenceId }) => {
      const history = streams.get(recurrenceStreamId(tenant, recurrenceId)) ?? [];
      const state = stateOf(recurrence, history);
      const plan: CyclePlan = state.status === 'NONE' ? { charges: [] } : planDueCharges(state, tenant.environment, this.clock.today(tenant));
      return { tenant, recurrenceId, version: history.length, state, history, plan, debited: [] as PlannedCharge[] };
    });
    await forEachConcurrently(work, SCHEDULER_CONCURRENCY, async (w) => {
      for (const planned of w.plan.charges) {
        try {
          await this.createDebit(w.tenant, planned);
        } catch (error) {
          // The bank unreachable, say: this recurrence stays due for the next run; the others go on.
          this.logger.warn(`cycle ${planned.command.next.cycle} of ${w.recurrenceId} not issued, will retry: ${String(error)}`);
          return;
        }
        w.debited.push(planned);
      }
    });

    const debited = work.filter((w) => w.debited.length > 0);
    // These are no longer due: every due charge issued, or next_charge_at moved on. The rest wait for another run.
    const finished = work.filter((w) => w.debited.length === w.plan.charges.length && (w.debited.length > 0 || w.plan.postponeTo !== undefined));
    try {
      await this.eventStore.appendAll<RecurrenceEvent>(
        debited.map(({ tenant, recurrenceId, version, state, history, debited: charges }) => {
          const occurredAt = this.clock.now(tenant);
          return {
            request: {
              streamId: recurrenceStreamId(tenant, recurrenceId),
              streamType: RECURRENCE_STREAM,
              expectedVersion: version,
              events: recordRecurrenceEvents(
                charges.flatMap((c) => c.events),
                state,
                history,
                occurredAt,
              ),
              tenant,
              occurredAt,
              topic: Topics.recurrences.name,
            },
            project: (recorded) => projectRecurrence(recorded, charges[charges.length - 1].state),
          };
        }),
      );
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      for (const w of debited) await this.recordOneByOne(w.tenant, w.recurrenceId, w.debited);
      return finished.length;
    }
    for (const w of finished) {
      if (w.plan.postponeTo === undefined) continue;
      const version = w.version + w.debited.reduce((n, c) => n + c.events.length, 0);
      await postponeNextCharge(
        this.dataSource.manager,
        w.tenant,
        w.recurrenceId,
        version,
        w.plan.postponeTo === null ? null : brasiliaStartOfDay(w.plan.postponeTo),
      );
    }
    return finished.length;
  }

  /** The bank's debit for a planned cycle, as of the day the plan says. Created before a crash, or by another scheduler: the same debit. */
  private async createDebit(tenant: Tenant, planned: PlannedCharge): Promise<void> {
    const bank = this.bankAt(tenant, brasiliaStartOfDay(planned.asOf));
    try {
      await bank.createRecurringCharge(planned.command.txid, this.debit(planned.state, planned.command.next.due_date));
    } catch (error) {
      if (!isTxidTaken(error)) throw error;
    }
  }

  /** Debited charges recorded with the stream's own retries; a cycle refused meanwhile (cancelled) loses its debit. */
  private async recordOneByOne(tenant: Tenant, recurrenceId: string, charges: PlannedCharge[]): Promise<void> {
    for (const { command } of charges) {
      const outcome = await this.recurrences.execute(tenant, recurrenceId, command, { ignoreRefusals: true });
      if (outcome.ok) continue;
      this.logger.warn(`cycle ${command.next.cycle} of ${recurrenceId} refused (${JSON.stringify(outcome.refusal)}): cancelling its debit at the bank`);
      for (const later of charges.slice(charges.findIndex((c) => c.command === command))) {
        await this.bankAt(tenant)
          .cancelRecurringCharge(later.command.txid)
          .catch(() => undefined);
      }
      return;
    }
  }

  // ---- settlement ----

  /** Sandbox: the debits whose day the tenant's clock has reached are paid, as the settlement system would. */
  async settleDueSandboxAttempts(limit = 200): Promise<number> {
    const claim = await claimDueSandboxAttempts(this.dataSource.manager, this.clock.now(), limit);
    await claim.hold((due) => this.settle(due));
    return claim.items.length;
  }

  private async settle(due: { tenant: Tenant; txid: string; attemptAt: Date }[]): Promise<void> {
    for (const attempt of due) {
      try {
        const cobr = await this.payerAt(attempt.attemptAt).payRecurringCharge(attempt.txid);
        await this.applyBankCharge('sandbox', cobr);
      } catch (error) {
        if (!(error instanceof RefusalException) || error.refusal.kind !== 'provider') throw error;
        // Nothing pending at the bank (failed, paid or cancelled there first): take the bank's word for it.
        await this.applyBankCharge('sandbox', await this.banks.of(attempt.tenant).getRecurringCharge(attempt.txid), 'reconcile');
      }
    }
  }

  /** What the bank reports of a debit (its webhookcobr callback, or an answer): applied once, whatever arrives twice. */
  async applyBankCharge(environment: Tenant['environment'], cobr: CobRNotification | CobRCompleta, reading: BankReading = 'notification'): Promise<void> {
    // Most notices imply nothing (a debit created, an attempt scheduled): answered without looking the charge up.
    if (chargeCommandFor('', cobr, reading) === undefined) return;
    const known = await findChargeByTxid(this.dataSource.manager, environment, cobr.txid);
    if (!known) return;
    const command = chargeCommandFor(known.chargeId, cobr, reading);
    if (command) await this.recurrences.execute(known.tenant, known.recurrenceId, command, { ignoreRefusals: true });
  }

  // ---- helpers ----

  private async load(tenant: Tenant, recurrenceId: string): Promise<{ state: Recurrence | undefined; version: number }> {
    const history = await this.eventStore.readStream<RecurrenceEvent>(recurrenceStreamId(tenant, recurrenceId));
    const state = stateOf(recurrence, history);
    return { state: state.status === 'NONE' ? undefined : state, version: history.length };
  }

  private async loadCharge(tenant: Tenant, chargeId: string): Promise<{ r: Recurrence; charge: Charge }> {
    const found = await findCharge(this.dataSource.manager, tenant, chargeId);
    const { state } = found ? await this.load(tenant, found.recurrence_id) : { state: undefined };
    const charge = state?.charges.find((c) => c.charge_id === chargeId);
    return state && charge ? { r: state, charge } : refuse(notFound(Messages.charges.notFound));
  }

  /** The decision before the bank is asked: a refusal answers the merchant; else how many events it would record. */
  private decide(r: Recurrence, command: ChargeCommand): number {
    const decision = recurrence.decide(command, r);
    return decision.ok ? decision.events.length : refuse(decision.refusal);
  }

  /** The bank as of the tenant's now: a sandbox tenant's test clock travels with the request. */
  private bankAt(tenant: Tenant, at: Date = this.clock.now(tenant)): PixBankClient {
    return this.banks.of(tenant, at);
  }

  private payerAt(at: Date): SimulatedPayer {
    return this.banks.sandboxPayer.at(at);
  }

  /** The cobr of one cycle (CobRSolicitada): the debtor's contact and address travel with it. */
  private debit(r: Recurrence, dueDate: string) {
    const { debtor } = r.data;
    const address = debtor.address;
    return {
      idRec: r.data.bank.id_rec,
      calendario: { dataDeVencimento: dueDate },
      valor: { original: centavosToValor(r.data.amount_centavos) },
      // Our due date is already moved to a business day when the recurrence asks for it.
      ajusteDiaUtil: r.data.business_day_adjust,
      recebedor: RECEIVER,
      ...((debtor.email !== null || address !== null) && {
        devedor: {
          ...(debtor.email !== null && { email: debtor.email }),
          ...(address !== null && { logradouro: address.street, cidade: address.city, uf: address.state, cep: address.zip_code }),
        },
      }),
      ...(r.data.object !== null && { infoAdicional: r.data.object }),
    };
  }
}

/**
 * A notification, or the bank's state read to reconcile ours. A notification of a cancellation we asked for is
 * ours already, or about to be (a cancel, or the old debit of a reschedule, recorded right after the bank's answer).
 */
export type BankReading = 'notification' | 'reconcile';

/** The bank's view of a debit, as the one charge command it implies (or none). */
export function chargeCommandFor(
  chargeId: string,
  cobr: Pick<CobRNotification, 'status' | 'tentativas' | 'pix' | 'atualizacao' | 'encerramento'>,
  reading: BankReading,
): ChargeCommand | undefined {
  const attempts = cobr.tentativas ?? [];
  switch (cobr.status) {
    case 'CONCLUIDA': {
      const pix = cobr.pix?.[0];
      const paid = attempts.find((t) => t.status === 'PAGA');
      const paidAt = pix?.horario ?? paid?.atualizacao.at(-1)?.data ?? cobr.atualizacao.at(-1)?.data;
      return paidAt === undefined
        ? undefined
        : { type: 'RecordChargePaid', charge_id: chargeId, paid_at: paidAt, end_to_end_id: pix?.endToEndId ?? paid?.endToEndId ?? null };
    }
    case 'CANCELADA':
      if (reading === 'notification' && cobr.encerramento?.cancelamento?.solicitante === 'USUARIO_RECEBEDOR') return undefined;
      return { type: 'CancelCharge', charge_id: chargeId, by: 'bank' };
    default: {
      if (attempts.some((t) => t.status === 'SOLICITADA' || t.status === 'AGENDADA')) return undefined;
      const refused = attempts.filter((t) => t.status === 'REJEITADA').at(-1);
      if (!refused) return undefined;
      const reason = refused.rejeicao ? { code: refused.rejeicao.codigo, description: refused.rejeicao.descricao } : null;
      return { type: 'RecordChargeFailed', charge_id: chargeId, attempt_date: refused.dataLiquidacao, reason };
    }
  }
}
