import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AccountProfile,
  CreateRecurrenceRequest,
  EventEnvelope,
  SolicitationAnsweredData,
  SolicitationEventTypes,
  SolicitationExpiredData,
  RecurrenceActivationData,
  RecurrenceResponse,
  Tenant,
  Topics,
  validateCreateRecurrence,
  validateListRecurrences,
  paginationOf,
  validateUpdateRecurrence,
} from '@pixauto/contracts';
import {
  Banks,
  centavosToValor,
  fromBankJourney,
  PIX_RECEIVER_KEY,
  PixBankClient,
  RecNotificacao,
  RecSolicitada,
  toBankDocument,
  toBankPeriodicity,
  toBankRetryPolicy,
} from '@pixauto/bank';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { brasiliaDate, Clock, QrCodeImages, recurrencePixCode } from '@pixauto/pix';
import {
  claimDueActivations,
  findByBankId,
  findRecurrence,
  listRecurrences,
  projectRecurrence,
  recordRecurrenceEvents,
  recurrence,
  RECURRENCE_STREAM,
  RecurrenceCommand,
  recurrenceStreamId,
  transactionIdTaken,
} from '@pixauto/recurrences';
import { CLOCK } from '@pixauto/runtime';

/** The city printed in Pix codes: the PSP's (a merchant's address is not part of the account yet). */
const MERCHANT_CITY = process.env.PIX_MERCHANT_CITY ?? 'SAO PAULO';
const UNIQUE_VIOLATION = '23505';

/** The recurrence use cases (docs/decisions/recurrences.md): the bank first, then our events. */
@Injectable()
export class Recurrences {
  private readonly qrCodes = new QrCodeImages();

  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(tenant: Tenant, account: AccountProfile | undefined, body: unknown): Promise<RecurrenceResponse> {
    const request = validateCreateRecurrence(body, this.clock.today(tenant));
    if (!request.ok) return refuse(request.refusal);
    if (!account?.wallet) return refuse(validation(Messages.recurrences.noWallet));
    const r = request.value;
    // Checked before the bank is asked; the read model's unique key settles a race between two identical creates.
    if (await transactionIdTaken(this.dataSource.manager, tenant, r.transaction_id)) return refuse(validation(Messages.recurrences.transactionIdTaken));

    const bank = this.banks.of(tenant);
    const location = r.location_id !== undefined ? await bank.getRecurrenceLocation(r.location_id) : await bank.createRecurrenceLocation();
    const activation = r.activation_amount_centavos !== undefined ? await this.createActivation(bank, tenant, r, account.cashin_provider) : undefined;
    const rec = await bank.createRecurrence(this.bankRecurrence(r, location.id, activation?.data.txid));
    const recurrenceId = randomUUID();
    const data = {
      recurrence_id: recurrenceId,
      transaction_id: r.transaction_id,
      object: r.object ?? null,
      debtor: { document_number: r.debtor.document_number, name: r.debtor.name, email: r.debtor.email ?? null, address: r.debtor.address ?? null },
      schedule: { start_date: r.schedule.start_date, end_date: r.schedule.end_date, periodicity: r.schedule.periodicity },
      amount_centavos: r.amount_centavos,
      retry_policy: r.retry_policy,
      business_day_adjust: r.business_day_adjust,
      charge_lead_days: r.charge_lead_days,
      webhook: r.webhook,
      bank: { id_rec: rec.idRec, location_id: location.id, location_url: location.location },
      pix_copy_paste: recurrencePixCode({
        merchantName: account.name,
        merchantCity: MERCHANT_CITY,
        recurrenceUrl: location.location,
        immediatePaymentUrl: activation?.location,
      }),
      activation: activation?.data ?? null,
    };
    try {
      await this.execute(tenant, recurrenceId, { type: 'CreateRecurrence', data, today: this.clock.today(tenant) });
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== UNIQUE_VIOLATION || constraint !== 'recurrences_transaction_id') throw error;
      // Lost the race to an identical create: ours must not stay alive at the bank.
      await bank.cancelRecurrence(rec.idRec).catch(() => undefined);
      return refuse(validation(Messages.recurrences.transactionIdTaken));
    }
    return this.get(tenant, recurrenceId);
  }

  async get(tenant: Tenant, recurrenceId: string): Promise<RecurrenceResponse> {
    const found = await findRecurrence(this.dataSource.manager, tenant, recurrenceId);
    if (!found) return refuse(notFound(Messages.recurrences.notFound));
    return found.pix_copy_paste === null ? found : { ...found, qrcode: this.qrCodes.of(found.pix_copy_paste) };
  }

  async list(tenant: Tenant, query: unknown) {
    const request = validateListRecurrences(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, recurrences } = await listRecurrences(this.dataSource.manager, tenant, request.value);
    return { pagination: paginationOf(request.value, total), recurrences };
  }

  /** PATCH: decided before the bank hears of it, so a refused change never reaches the bank. */
  async update(tenant: Tenant, recurrenceId: string, body: unknown): Promise<RecurrenceResponse> {
    const request = validateUpdateRecurrence(body, this.clock.today(tenant));
    if (!request.ok) return refuse(request.refusal);
    const { status, ...changes } = request.value;
    const command: RecurrenceCommand = { type: 'UpdateRecurrence', changes, cancel: status === 'CANCELLED' };
    const state = await this.eventStore.load(recurrence, recurrenceStreamId(tenant, recurrenceId));
    const decision = recurrence.decide(command, state);
    if (!decision.ok) return refuse(decision.refusal);
    if (state.status !== 'NONE' && decision.events.length > 0) {
      const bank = this.banks.of(tenant);
      const idRec = state.data.bank.id_rec;
      // The bank takes a new first date only before the payer authorizes; after that the date governs our charges.
      const newStartDate = state.status === 'CREATED' ? changes.start_date : undefined;
      if (changes.debtor_name !== undefined || newStartDate !== undefined) {
        await bank.reviseRecurrence(idRec, {
          ...(changes.debtor_name !== undefined && { vinculo: { devedor: { nome: changes.debtor_name } } }),
          ...(newStartDate !== undefined && { calendario: { dataInicial: newStartDate } }),
        });
      }
      if (command.cancel) await bank.cancelRecurrence(idRec);
      await this.execute(tenant, recurrenceId, command);
    }
    return this.get(tenant, recurrenceId);
  }

  /** A status the bank reports (its webhook, or the sandbox payer's answer): applied once, whatever arrives twice. */
  async applyBankStatus(environment: Tenant['environment'], notification: Pick<RecNotificacao, 'idRec' | 'status' | 'ativacao'>): Promise<void> {
    const known = await findByBankId(this.dataSource.manager, environment, notification.idRec);
    if (!known) return;
    const command = commandFor(notification, this.clock.now(known.tenant));
    if (command) await this.execute(known.tenant, known.recurrenceId, command, { ignoreRefusals: true });
  }

  /** Journey 3: an activation that expired unpaid voids the code; the recurrence can no longer be authorized. */
  async expireDueActivations(): Promise<number> {
    const claim = await claimDueActivations(this.dataSource.manager, this.clock.now());
    await claim.hold(async (due) => {
      for (const { tenant, recurrenceId } of due) await this.execute(tenant, recurrenceId, { type: 'ExpireActivation' }, { ignoreRefusals: true });
    });
    return claim.items.length;
  }

  /** Journey 1: the payer's answer to a solicitation, or its deadline, learnt from the solicitation events. */
  async applySolicitationOutcome(event: EventEnvelope): Promise<void> {
    const tenant: Tenant = { accountId: event.tenant.account_id, environment: event.tenant.environment };
    let command: RecurrenceCommand | undefined;
    let recurrenceId: string | undefined;
    if (event.type === SolicitationEventTypes.answered) {
      const data = event.data as SolicitationAnsweredData;
      recurrenceId = data.recurrence_id;
      command = data.answer === 'ACCEPTED' ? approval('JOURNEY_1', this.clock.now(tenant)) : { type: 'RejectRecurrence' };
    } else if (event.type === SolicitationEventTypes.expired) {
      recurrenceId = (event.data as SolicitationExpiredData).recurrence_id;
      command = { type: 'ExpireRecurrence' };
    }
    if (command && recurrenceId) await this.execute(tenant, recurrenceId, command, { ignoreRefusals: true });
  }

  /** Sandbox: the payer accepts by QR (the activation is paid with it in journey 3) or refuses. */
  async payerAnswers(tenant: Tenant, recurrenceId: string, decision: 'authorize' | 'reject'): Promise<RecurrenceResponse> {
    const state = await this.eventStore.load(recurrence, recurrenceStreamId(tenant, recurrenceId));
    const check = recurrence.decide(decision === 'authorize' ? approval('JOURNEY_2', this.clock.now(tenant)) : { type: 'RejectRecurrence' }, state);
    if (!check.ok) return refuse(check.refusal);
    if (state.status === 'NONE') return refuse(notFound(Messages.recurrences.notFound));
    const payer = this.banks.sandboxPayer;
    const rec = decision === 'authorize' ? await payer.authorizeRecurrence(state.data.bank.id_rec) : await payer.refuseRecurrence(state.data.bank.id_rec);
    await this.applyBankStatus(tenant.environment, rec);
    return this.get(tenant, recurrenceId);
  }

  /** Runs a command on the recurrence's stream; a refusal is thrown (answered to the caller) unless told to ignore it. */
  async execute(tenant: Tenant, recurrenceId: string, command: RecurrenceCommand, options: { ignoreRefusals?: boolean } = {}) {
    const outcome = await this.eventStore.handle(recurrence, command, {
      streamId: recurrenceStreamId(tenant, recurrenceId),
      streamType: RECURRENCE_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.recurrences.name,
      project: projectRecurrence,
      record: recordRecurrenceEvents,
    });
    if (!outcome.ok && !options.ignoreRefusals) refuse(outcome.refusal);
    return outcome;
  }

  private bankRecurrence(r: CreateRecurrenceRequest, locationId: number, activationTxid: string | undefined): RecSolicitada {
    return {
      vinculo: {
        ...(r.object !== undefined && { objeto: r.object }),
        contrato: r.transaction_id,
        devedor: { ...toBankDocument(r.debtor.document_number), nome: r.debtor.name },
      },
      calendario: {
        dataInicial: r.schedule.start_date,
        ...(r.schedule.end_date !== null && { dataFinal: r.schedule.end_date }),
        periodicidade: toBankPeriodicity(r.schedule.periodicity),
      },
      valor: { valorRec: centavosToValor(r.amount_centavos) },
      politicaRetentativa: toBankRetryPolicy(r.retry_policy),
      loc: locationId,
      ...(activationTxid !== undefined && { ativacao: { dadosJornada: { txid: activationTxid } } }),
    };
  }

  /** Journey 3: the immediate payment, created at the bank before the recurrence that binds it. */
  private async createActivation(bank: PixBankClient, tenant: Tenant, r: CreateRecurrenceRequest, provider: string) {
    const txid = randomBytes(16).toString('hex');
    const expiresIn = r.activation_expires_in ?? 3600;
    const charge = await bank.createImmediateCharge(txid, {
      calendario: { expiracao: expiresIn },
      devedor: { ...toBankDocument(r.debtor.document_number), nome: r.debtor.name },
      valor: { original: centavosToValor(r.activation_amount_centavos ?? 0) },
      chave: PIX_RECEIVER_KEY,
      ...(r.object !== undefined && { solicitacaoPagador: r.object }),
    });
    const data: RecurrenceActivationData = {
      charge_id: randomUUID(),
      amount_centavos: r.activation_amount_centavos ?? 0,
      txid,
      expires_at: new Date(this.clock.now(tenant).getTime() + expiresIn * 1000).toISOString(),
      webhook: r.webhook,
      provider,
    };
    return { data, location: charge.loc?.location ?? charge.location ?? '' };
  }
}

/** The approval as of the tenant's now: its day bounds the cycles to charge. */
const approval = (journey: Extract<RecurrenceCommand, { type: 'ApproveRecurrence' }>['journey'], now: Date): RecurrenceCommand => ({
  type: 'ApproveRecurrence',
  journey,
  at: now.toISOString(),
  today: brasiliaDate(now),
});

function commandFor(notification: Pick<RecNotificacao, 'status' | 'ativacao'>, now: Date): RecurrenceCommand | undefined {
  switch (notification.status) {
    case 'APROVADA': {
      const journey = fromBankJourney(notification.ativacao?.tipoJornada);
      return approval(journey === 'JOURNEY_1' || journey === 'JOURNEY_3' ? journey : 'JOURNEY_2', now);
    }
    case 'REJEITADA':
      return { type: 'RejectRecurrence' };
    case 'EXPIRADA':
      return { type: 'ExpireRecurrence' };
    case 'CANCELADA':
      return { type: 'UpdateRecurrence', changes: {}, cancel: true };
    default:
      return undefined;
  }
}
