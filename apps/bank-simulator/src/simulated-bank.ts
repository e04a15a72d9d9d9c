import type {
  Devolucao,
  Infracao,
  CobCompleta,
  CobRCompleta,
  Documento,
  LocRec,
  PagadorRec,
  Pagamento,
  PixRecebido,
  Problema,
  RecCompleta,
  RecGerada,
  SolicRecCompleta,
  Violacao,
  WebhookPix,
  WebhookRec,
} from '@pixauto/bank';
import { valorToCentavos } from '@pixauto/bank';
import { brasiliaDate } from '@pixauto/pix';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { SimulatorConfig } from './config';
import { isExpired, newCharge, pay, removeCharge, reviseCharge } from './domain/charge';
import { cycleIndex } from './domain/cycle';
import { endToEndId, locationUrl, recurrenceId, returnId, solicitationId } from './domain/identifiers';
import { orRefuse, ProblemException, Problems, Result, violation } from './domain/problems';
import { approve, expire, newRecurrence, reject, revise } from './domain/recurrence';
import { payoutReceipt, payoutReturnReceipt, pixRefundReceipt, renderReceipt } from './domain/receipt-pdf';
import { devolucaoView, liquidate, newRefund, RefundRecord } from './domain/refund';
import { conclude, defend, infracaoView, InfractionRecord, newInfraction } from './domain/infraction';
import { changeStatus, newPayout, pagamentoView, resolveDestination, returnPayout, settle as settlePayout } from './domain/payout';
import { CobRecord, CobRRecord, LocationRecord, PayoutRecord, RecRecord, SolicRecord, WebhookKind } from './domain/records';
import {
  cancelRecurringCharge,
  cycleTaken,
  dueOn,
  issueRecurringCharge,
  refuseAttempt,
  requestRetry,
  settle,
  settleIfDue,
  txidInUse,
} from './domain/recurring-charge';
import { advance, answer, cancel, isOpen, newSolicitation, nextStep } from './domain/solicitation';
import {
  validateChargeRemoval,
  validateDecision,
  validateIdEnvio,
  validateNewCharge,
  validateNewPayout,
  validateNewRecurrence,
  validateNewRecurringCharge,
  validateNewSolicitation,
  validatePayoutStatusChange,
  validatePixWebhook,
  validateRecurrenceRevision,
  validateRecurringChargeRevision,
  validateSolicitationRevision,
  NewRecurringCharge,
  validateWebhookUrl,
} from './domain/validation';
import {
  cobRNotificationView,
  cobRView,
  cobView,
  locRecView,
  pixView,
  recCompletaView,
  recGeradaView,
  recNotificationView,
  solicRecView,
} from './domain/views';
import { Batcher, settled, Settled } from './batcher';
import { SimulatedClock } from './simulated-clock';
import { BankStore, uniqueViolationOf } from './store/bank-store';
import { Notification, WebhookNotifier } from './webhook-notifier';

/** One PUT /cobr/{txid}, validated, with the "now" of its own request. */
interface RecurringChargePut {
  client: string;
  txid: string;
  input: NewRecurringCharge;
  now: Date;
}

/** Something to push (a status change, a Pix received) once its transaction has committed. */
interface Notice {
  client: string;
  notification: Notification;
}

const WEBHOOK_PROBLEMS: Record<WebhookKind, { invalid: (v: Violacao[]) => Problema; notFound: () => Problema }> = {
  rec: { invalid: Problems.webhookRecInvalid, notFound: Problems.webhookRecNotFound },
  cobr: { invalid: Problems.webhookCobRInvalid, notFound: Problems.webhookCobRNotFound },
  pagamentos: { invalid: Problems.webhookPayoutInvalid, notFound: Problems.webhookPayoutNotFound },
};

const refuse = (problem: Problema): never => {
  throw new ProblemException(problem);
};

/**
 * The simulated bank: each operation is one transaction that loads what it needs (locked, in a fixed order:
 * recurrence, its solicitations, charges), applies the pure rules of domain/, stores the result, and answers
 * the BCB view. Status changes of recurrences, recurring charges and payouts, and the Pix received on a key with a
 * webhook, are pushed to the client's webhooks after the commit. "Now" is the clock's: real time, or a request's x-simulated-now when later (simulated-clock.ts).
 */
export class SimulatedBank {
  private readonly newRecurringCharges = new Batcher<RecurringChargePut, CobRCompleta>((puts) => this.createRecurringCharges(puts), 200);

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BankStore,
    private readonly clock: SimulatedClock,
    private readonly config: SimulatorConfig,
    private readonly notifier: WebhookNotifier,
  ) {}

  // ---- PayloadLocationRec ----

  createRecurrenceLocation(client: string): Promise<LocRec> {
    return this.transaction(async (m) =>
      locRecView(await this.store.insertLocation(m, client, 'rec', locationUrl(this.config.publicHost, 'rec'), this.clock.now())),
    );
  }

  getRecurrenceLocation(client: string, id: string): Promise<LocRec> {
    return this.transaction(async (m) => {
      const loc = /^\d{1,15}$/.test(id) ? await this.store.findLocation(m, client, Number(id)) : undefined;
      return loc?.kind === 'rec' ? locRecView(loc) : refuse(Problems.locRecNotFound());
    });
  }

  // ---- Rec ----

  createRecurrence(client: string, body: unknown): Promise<RecGerada> {
    const now = this.clock.now();
    const input = orRefuse(validateNewRecurrence(body, brasiliaDate(now)));
    return this.transaction(async (m) => {
      const v: Violacao[] = [];
      const loc = input.loc === undefined ? undefined : await this.freeLocation(m, client, input.loc, v);
      const cob = input.activationTxid === undefined ? undefined : await this.freeActivationCharge(m, client, input.activationTxid, v);
      if (v.length > 0) refuse(Problems.recInvalid(v));
      const rec = newRecurrence(recurrenceId(this.config.receiver.ispb, input.politicaRetentativa, now), input, now);
      await this.store.insertRecurrence(m, client, rec, now);
      if (loc) await this.store.bindLocation(m, loc.id, rec.idRec);
      if (cob) await this.store.updateCharge(m, client, { ...cob, idRec: rec.idRec });
      return recGeradaView(rec, loc && { ...loc, idRec: rec.idRec }, this.config.receiver);
    });
  }

  getRecurrence(client: string, idRec: string, txid?: string): Promise<RecCompleta> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const { rec, solicitations } = await this.loadRecurrence(m, client, idRec, now, notices);
      let qrCharge: { cob: CobRecord; loc: LocationRecord } | undefined;
      if (txid !== undefined) {
        const cob = rec.activationTxid === txid ? await this.store.findCharge(m, client, txid) : undefined;
        if (!cob) {
          refuse(
            Problems.recQueryInvalid([
              violation('txid', 'O parâmetro txid corresponde a uma cobrança imediata diferente da informada no campo ativacao.dadosJornada.txid.', txid),
            ]),
          );
        } else qrCharge = { cob, loc: await this.location(m, client, cob.locId) };
      }
      return recCompletaView(rec, { loc: await this.recLocation(m, client, rec), solicitations, qrCharge, now }, this.config.receiver);
    });
  }

  reviseRecurrence(client: string, idRec: string, body: unknown): Promise<RecGerada> {
    const now = this.clock.now();
    const revision = orRefuse(validateRecurrenceRevision(body, brasiliaDate(now)));
    return this.transaction(async (m, notices) => {
      const { rec, solicitations } = await this.loadRecurrence(m, client, idRec, now, notices);
      const v: Violacao[] = [];
      const newLoc = revision.loc !== undefined && revision.loc !== rec.locId ? await this.freeLocation(m, client, revision.loc, v) : undefined;
      const newCob =
        revision.activationTxid !== undefined && revision.activationTxid !== rec.activationTxid
          ? await this.freeActivationCharge(m, client, revision.activationTxid, v)
          : undefined;
      if (v.length > 0) refuse(Problems.recInvalid(v));
      const revised = orRefuse(revise(rec, revision, now));

      if (newLoc) {
        if (rec.locId !== null) await this.store.bindLocation(m, rec.locId, null);
        await this.store.bindLocation(m, newLoc.id, rec.idRec);
      }
      if (newCob) {
        const previous = rec.activationTxid === null ? undefined : await this.store.findCharge(m, client, rec.activationTxid, true);
        if (previous) await this.store.updateCharge(m, client, { ...previous, idRec: null });
        await this.store.updateCharge(m, client, { ...newCob, idRec: rec.idRec });
      }
      if (revised.status === 'CANCELADA' && rec.status !== 'CANCELADA') {
        // A cancelled recurrence can no longer be authorized: its open alert goes with it.
        // Its recurring charges already issued stay as they are: each is cancelled on its own (PATCH /cobr).
        for (const s of solicitations.filter(isOpen)) await this.saveSolicitation(m, client, orRefuse(cancel(s, now)));
        notices.push({ client, notification: { kind: 'rec', rec: recNotificationView(revised) } });
      }
      await this.store.updateRecurrence(m, client, revised);
      return recGeradaView(revised, await this.recLocation(m, client, revised), this.config.receiver);
    });
  }

  // ---- SolicRec ----

  createSolicitation(client: string, body: unknown): Promise<SolicRecCompleta> {
    const now = this.clock.now();
    const input = orRefuse(validateNewSolicitation(body, now));
    return this.transaction(async (m, notices) => {
      const { rec, solicitations } = await this.loadRecurrence(m, client, input.idRec, now, notices);
      if (rec.status !== 'CRIADA') {
        refuse(
          Problems.solicRecInvalid([
            violation(
              'solicrec.idRec',
              `A recorrência encontra-se com o status ${rec.status}; somente uma recorrência CRIADA pode ser solicitada ao usuário pagador.`,
              rec.idRec,
            ),
          ]),
        );
      }
      if (solicitations.some(isOpen))
        refuse(Problems.solicRecInvalid([violation('solicrec.idRec', 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', rec.idRec)]));
      const s = newSolicitation(solicitationId(this.config.receiver.ispb, now), input, now);
      await this.store.insertSolicitation(m, client, s, this.dueAt(s));
      return solicRecView(s, rec, this.config.receiver);
    });
  }

  getSolicitation(client: string, idSolicRec: string): Promise<SolicRecCompleta> {
    return this.onSolicitation(client, idSolicRec, async (_m, rec, s) => solicRecView(s, rec, this.config.receiver));
  }

  /** PATCH /solicrec/{idSolicRec}: SolicRecRevisada allows one change, status CANCELADA. */
  reviseSolicitation(client: string, idSolicRec: string, body: unknown): Promise<SolicRecCompleta> {
    orRefuse(validateSolicitationRevision(body));
    return this.onSolicitation(client, idSolicRec, async (m, rec, s, now) => {
      const cancelled = await this.saveSolicitation(m, client, orRefuse(cancel(s, now)));
      return solicRecView(cancelled, rec, this.config.receiver);
    });
  }

  /** Applies the automatic steps that have fallen due (the sweeper's work); how many solicitations moved. */
  async settleDueSolicitations(limit = 100): Promise<number> {
    const due = await this.store.dueSolicitations(this.dataSource.manager, this.clock.now(), limit);
    for (const { client, idSolicRec } of due) await this.onSolicitation(client, idSolicRec, async () => undefined);
    return due.length;
  }

  // ---- Cob ----

  putImmediateCharge(client: string, txid: string, body: unknown): Promise<CobCompleta> {
    const now = this.clock.now();
    const input = orRefuse(validateNewCharge(txid, body));
    return this.transaction(async (m) => {
      const existing = await this.store.findCharge(m, client, txid, true);
      if (existing) {
        const revised = orRefuse(reviseCharge(existing, input));
        await this.store.updateCharge(m, client, revised);
        return cobView(revised, await this.location(m, client, revised.locId), this.config.receiver);
      }
      const loc = await this.store.insertLocation(m, client, 'cob', locationUrl(this.config.publicHost, 'cob'), now);
      const cob = newCharge(txid, input, this.config.receiver.chave, loc.id, now);
      await this.store.insertCharge(m, client, cob);
      return cobView(cob, loc, this.config.receiver);
    });
  }

  getImmediateCharge(client: string, txid: string): Promise<CobCompleta> {
    return this.transaction(async (m) => {
      const cob = (await this.store.findCharge(m, client, txid)) ?? refuse(Problems.cobNotFound());
      return cobView(cob, await this.location(m, client, cob.locId), this.config.receiver);
    });
  }

  /** PATCH /cob/{txid} (CobRevisada): here only the removal (REMOVIDA_PELO_USUARIO_RECEBEDOR) of an ATIVA charge. */
  removeImmediateCharge(client: string, txid: string, body: unknown): Promise<CobCompleta> {
    orRefuse(validateChargeRemoval(body));
    return this.transaction(async (m) => {
      const cob = (await this.store.findCharge(m, client, txid, true)) ?? refuse(Problems.cobNotFound());
      const removed = orRefuse(removeCharge(cob));
      await this.store.updateCharge(m, client, removed);
      return cobView(removed, await this.location(m, client, removed.locId), this.config.receiver);
    });
  }

  // ---- Pix received ----

  /** GET /pix/{e2eid}: the payment of one of the client's paid immediate charges, with its refunds. */
  async getReceivedPix(client: string, endToEndId: string): Promise<PixRecebido> {
    const cob = await this.store.findChargeByEndToEndId(this.dataSource.manager, client, endToEndId);
    if (!cob?.payment) return refuse(Problems.pixNotFound());
    return this.pixWithRefunds(this.dataSource.manager, client, cob);
  }

  // ---- Refunds (devolucao) ----

  /**
   * PUT /pix/{e2eid}/devolucao/{id}: a refund of a paid charge, EM_PROCESSAMENTO, liquidated by itself refundSettleMs
   * later (the sweeper, by real time). The charge is locked, so concurrent refunds of one Pix are judged one at a time.
   */
  requestRefund(client: string, endToEndId: string, id: string, body: unknown): Promise<Devolucao> {
    const now = this.clock.now();
    return this.transaction(async (m) => {
      const peek = (await this.store.findChargeByEndToEndId(m, client, endToEndId)) ?? refuse(Problems.pixNotFound());
      const cob = (await this.store.findCharge(m, client, peek.txid, true)) ?? refuse(Problems.pixNotFound());
      const refund = orRefuse(newRefund(cob, await this.store.findRefunds(m, client, endToEndId), id, body, returnId(this.config.receiver.ispb, now), now));
      await this.store.insertRefund(m, client, refund, new Date(this.clock.realNow().getTime() + this.config.refundSettleMs));
      return devolucaoView(refund);
    });
  }

  /** GET /pix/{e2eid}/devolucao/{id} */
  async getRefund(client: string, endToEndId: string, id: string): Promise<Devolucao> {
    const refund = (await this.store.findRefunds(this.dataSource.manager, client, endToEndId)).find((r) => r.id === id);
    return refund ? devolucaoView(refund) : refuse(Problems.refundNotFound());
  }

  /** The bank liquidates a refund now (/sim/pix/{e2eid}/devolucao/{id}/settle): DEVOLVIDO, pushed to the key's webhook. */
  settleRefund(client: string, endToEndId: string, id: string): Promise<Devolucao> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const refund = (await this.store.lockRefund(m, client, endToEndId, id)) ?? refuse(Problems.refundNotFound());
      return devolucaoView(await this.saveRefund(m, client, refund, liquidate(refund, now), notices));
    });
  }

  // ---- Infractions (MED): the bank's own API ----

  /**
   * The payer's bank reports an infraction on one of the client's paid Pix (/sim/infracoes): ABERTA. The charge is
   * locked, as for a refund, so the return it may cause is judged one at a time with the refunds.
   */
  openInfraction(client: string, body: unknown): Promise<Infracao> {
    const now = this.clock.now();
    return this.transaction(async (m) => {
      const e2eId = (body as { endToEndId?: unknown } | null)?.endToEndId;
      const peek = typeof e2eId === 'string' ? await this.store.findChargeByEndToEndId(m, client, e2eId) : undefined;
      const cob = (peek && (await this.store.findCharge(m, client, peek.txid, true))) ?? refuse(Problems.pixNotFound());
      const infraction = orRefuse(newInfraction(`INF${randomUUID().replace(/-/g, '').slice(0, 29)}`, body, cob.amount, now));
      await this.store.insertInfraction(m, client, infraction);
      return infracaoView(infraction);
    });
  }

  /** GET /infracoes/{id}, with the return it caused once CONCLUIDA and DEVOLVIDO. */
  async getInfraction(client: string, id: string): Promise<Infracao> {
    const infraction = (await this.store.findInfraction(this.dataSource.manager, client, id)) ?? refuse(Problems.infractionNotFound());
    return this.infracaoWithReturn(this.dataSource.manager, client, infraction);
  }

  /** POST /infracoes/{id}/defesa: the receiver's defence, once, until prazoDefesa (the tenant's "now" in the sandbox). */
  defendInfraction(client: string, id: string, body: unknown): Promise<Infracao> {
    const now = this.clock.now();
    return this.transaction(async (m) => {
      const infraction = (await this.store.findInfraction(m, client, id, true)) ?? refuse(Problems.infractionNotFound());
      const defended = orRefuse(defend(infraction, body, now));
      await this.store.updateInfraction(m, client, defended);
      return infracaoView(defended);
    });
  }

  /**
   * The banks conclude an infraction now (/sim/infracoes/{id}/concluir {valorBloqueado}): by its desfecho, the return
   * (a devolução of natureza MED_*, DEVOLVIDO at once, never above what the Pix has left) or the rejection. Once.
   */
  concludeInfraction(client: string, id: string, body: unknown): Promise<Infracao> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const infraction = (await this.store.findInfraction(m, client, id, true)) ?? refuse(Problems.infractionNotFound());
      const peek = (await this.store.findChargeByEndToEndId(m, client, infraction.endToEndId)) ?? refuse(Problems.pixNotFound());
      const cob = (await this.store.findCharge(m, client, peek.txid, true)) ?? refuse(Problems.pixNotFound());
      const blocked = valorToCentavos((body as { valorBloqueado?: unknown } | null)?.valorBloqueado);
      if (blocked === undefined) refuse(Problems.infractionInvalid([violation('valorBloqueado', 'O campo valorBloqueado não respeita o schema.', undefined)]));
      const refunds = await this.store.findRefunds(m, client, infraction.endToEndId, true);
      const done = conclude(infraction, blocked as number, { amount: cob.amount, refunds }, returnId(this.config.receiver.ispb, now), now);
      if (done.infraction === infraction) return this.infracaoWithReturn(m, client, infraction);
      await this.store.updateInfraction(m, client, done.infraction);
      if (done.refund) {
        await this.store.insertRefund(m, client, done.refund, null);
        if (cob.payment) notices.push({ client, notification: { kind: 'pix', pix: await this.pixWithRefunds(m, client, cob) } });
      }
      return infracaoView(done.infraction, done.refund && devolucaoView(done.refund));
    });
  }

  private async infracaoWithReturn(m: EntityManager, client: string, infraction: InfractionRecord): Promise<Infracao> {
    if (infraction.resultado !== 'DEVOLVIDO') return infracaoView(infraction);
    const refund = (await this.store.findRefunds(m, client, infraction.endToEndId)).find((r) => r.id === `MED${infraction.id}`.slice(0, 35));
    return infracaoView(infraction, refund && devolucaoView(refund));
  }

  /**
   * The receipt of a liquidated refund, as a receipt provider renders it (PROVIDER_A, PROVIDER_B: they know a refund by
   * its rtrId, whoever's it is); undefined while it is not DEVOLVIDO, or for an rtrId nobody has.
   */
  async refundReceipt(provider: string, rtrId: string): Promise<Buffer | undefined> {
    const m = this.dataSource.manager;
    const found = await this.store.findRefundByRtrId(m, rtrId);
    if (found) {
      if (found.refund.status !== 'DEVOLVIDO') return undefined;
      const cob = await this.store.findChargeByEndToEndId(m, found.client, found.refund.endToEndId);
      return renderReceipt(pixRefundReceipt(provider, found.refund, cob?.devedor, this.config.receiver));
    }
    // A payout the receiving bank sent back.
    const payout = await this.store.findPayoutByReturn(m, rtrId);
    const ret = payout?.devolucoes?.find((d) => d.rtrId === rtrId);
    return payout && ret && renderReceipt(payoutReturnReceipt(provider, payout, ret, this.config.receiver));
  }

  /** The proof a payout was paid, as a receipt provider renders it, by its end-to-end id; undefined unless REALIZADO. */
  async payoutReceipt(provider: string, endToEndId: string): Promise<Buffer | undefined> {
    const payout = await this.store.findPayoutByEndToEndId(this.dataSource.manager, endToEndId);
    return payout?.status === 'REALIZADO' ? renderReceipt(payoutReceipt(provider, payout, this.config.receiver)) : undefined;
  }

  /** Liquidates the refunds whose time has come, by real time (the sweeper's work); how many were due. */
  async settleDueRefunds(limit = 100): Promise<number> {
    const now = this.clock.now();
    const due = await this.store.dueRefunds(this.dataSource.manager, now, limit);
    for (const { client, endToEndId, id } of due) {
      await this.transaction(async (m, notices) => {
        const refund = await this.store.lockRefund(m, client, endToEndId, id, now);
        if (refund) await this.saveRefund(m, client, refund, liquidate(refund, now), notices);
      });
    }
    return due.length;
  }

  /** PUT /webhook/{chave}: where the Pix received on this key are pushed ({webhookUrl}/pix). */
  async configurePixWebhook(client: string, chave: string, body: unknown): Promise<void> {
    const url = orRefuse(validatePixWebhook(chave, body));
    await this.store.setPixWebhook(this.dataSource.manager, client, chave, url, this.clock.now());
  }

  async getPixWebhook(client: string, chave: string): Promise<WebhookPix> {
    const webhook = await this.store.findPixWebhook(this.dataSource.manager, client, chave);
    return webhook ? { ...webhook, cnpj: this.config.receiver.cnpj } : refuse(Problems.webhookPixNotFound());
  }

  async deletePixWebhook(client: string, chave: string): Promise<void> {
    if (!(await this.store.deletePixWebhook(this.dataSource.manager, client, chave))) refuse(Problems.webhookPixNotFound());
  }

  // ---- Payouts (ours: the BCB API Pix has no payment initiation) ----

  /**
   * PUT /pagamentos/{idEnvio}: a new payout, EM_PROCESSAMENTO, settled by itself payoutSettleMs later (the sweeper, by
   * real time); `created` false when the client already had this idEnvio, whose payout is answered as it is, whatever
   * the body (a repeat after a crash adopts it; of concurrent PUTs one creates, the others read it).
   */
  async createPayout(client: string, idEnvio: string, body: unknown): Promise<{ created: boolean; pagamento: Pagamento }> {
    orRefuse(validateIdEnvio(idEnvio));
    const existing = await this.store.findPayout(this.dataSource.manager, client, idEnvio);
    if (existing) return { created: false, pagamento: pagamentoView(existing) };
    const now = this.clock.now();
    const input = orRefuse(validateNewPayout(body));
    const destinatario = orRefuse(resolveDestination(input));
    const payout = newPayout(idEnvio, input, destinatario, endToEndId(this.config.receiver.ispb, now), now);
    const dueAt = new Date(this.clock.realNow().getTime() + this.config.payoutSettleMs);
    return this.transaction(async (m, notices) => {
      if (!(await this.store.insertPayout(m, client, payout, dueAt))) {
        const concurrent = (await this.store.findPayout(m, client, idEnvio)) ?? refuse(Problems.internal());
        return { created: false, pagamento: pagamentoView(concurrent) };
      }
      notices.push({ client, notification: { kind: 'pagamentos', pagamento: pagamentoView(payout) } });
      return { created: true, pagamento: pagamentoView(payout) };
    });
  }

  async getPayout(client: string, idEnvio: string): Promise<Pagamento> {
    const payout = (await this.store.findPayout(this.dataSource.manager, client, idEnvio)) ?? refuse(Problems.payoutNotFound());
    return pagamentoView(payout);
  }

  /** Settles the payouts whose time has come, by real time (the sweeper's work); how many were due. */
  async settleDuePayouts(limit = 100): Promise<number> {
    const now = this.clock.now();
    const due = await this.store.duePayouts(this.dataSource.manager, now, limit);
    for (const { client, idEnvio } of due) {
      await this.transaction(async (m, notices) => {
        // Locked only while still due: a /sim change committed meanwhile (held or final) is left alone.
        const payout = await this.store.lockDuePayout(m, client, idEnvio, now);
        if (!payout) return;
        const settled = settlePayout(payout, this.config.payoutSettleMs);
        await this.savePayout(m, client, payout, settled, null, notices);
      });
    }
    return due.length;
  }

  // ---- CobR ----

  /** PUT /cobr/{txid}. PUTs that arrive together are created together (createRecurringCharges). */
  createRecurringCharge(client: string, txid: string, body: unknown): Promise<CobRCompleta> {
    const now = this.clock.now();
    const input = orRefuse(validateNewRecurringCharge(txid, body, brasiliaDate(now)));
    return this.newRecurringCharges.add({ client, txid, input, now });
  }

  /**
   * New recurring charges: those of distinct recurrences and txids are checked and inserted in one transaction, a
   * few statements for all. A PUT that shares its recurrence or txid with an earlier one goes alone after them (it
   * may need their result), and so does every PUT of a batch a unique index refused (a txid or cycle taken
   * meanwhile by a PUT outside it).
   */
  private async createRecurringCharges(items: RecurringChargePut[]): Promise<Settled<CobRCompleta>[]> {
    const seen = new Set<string>();
    const together = items.filter(({ client, txid, input }) => {
      const keys = [`rec ${input.idRec}`, `txid ${client} ${txid}`];
      if (keys.some((key) => seen.has(key))) return false;
      keys.forEach((key) => seen.add(key));
      return true;
    });
    let outcomes = new Map<RecurringChargePut, Settled<CobRCompleta>>();
    if (together.length > 1) {
      try {
        outcomes = await this.transaction((m, notices) => this.insertRecurringCharges(m, together, notices));
      } catch (error) {
        if (uniqueViolationOf(error) === undefined) throw error;
      }
    }
    const results: Settled<CobRCompleta>[] = [];
    for (const item of items) results.push(outcomes.get(item) ?? (await settled(this.createRecurringChargeAlone(item))));
    return results;
  }

  private async createRecurringChargeAlone(item: RecurringChargePut): Promise<CobRCompleta> {
    try {
      const outcome = (await this.transaction((m, notices) => this.insertRecurringCharges(m, [item], notices))).get(item);
      if (!outcome?.ok) throw outcome?.error;
      return outcome.value;
    } catch (error) {
      // The checks ran under the recurrence's lock, which covers one recurrence's cycles but not the same txid
      // under two recurrences at once: the unique indexes have the last word.
      const constraint = uniqueViolationOf(error);
      if (constraint === undefined) throw error;
      return refuse(Problems.cobRInvalid([constraint === 'recurring_charges_one_per_cycle' ? cycleTaken(item.input.dataDeVencimento) : txidInUse(item.txid)]));
    }
  }

  /** Under the recurrences' locks, so that PUTs for one recurrence (and one cycle) take turns; each PUT's own outcome. */
  private async insertRecurringCharges(
    m: EntityManager,
    items: RecurringChargePut[],
    notices: Notice[],
  ): Promise<Map<RecurringChargePut, Settled<CobRCompleta>>> {
    const keys = items.map(({ client, input }) => ({ client, idRec: input.idRec }));
    const stored = await this.store.lockRecurrences(m, keys);
    const solicitations = await this.store.lockSolicitationsOf(m, keys);
    const recs: (RecRecord | undefined)[] = [];
    for (const { client, input, now } of items) {
      const rec = stored.get(input.idRec);
      recs.push(rec && (await this.bringUpToDate(m, client, rec, solicitations.get(input.idRec) ?? [], now, notices)).rec);
    }
    const conflicts = await this.store.recurringChargeConflicts(
      m,
      items.map(({ client, txid, input }, index) => {
        const rec = recs[index];
        return { client, txid, cycle: rec && { idRec: rec.idRec, cycle: cycleIndex(rec.calendario, input.dataDeVencimento) } };
      }),
    );
    const outcomes = new Map<RecurringChargePut, Settled<CobRCompleta>>();
    const issued: { item: RecurringChargePut; cobr: CobRRecord }[] = [];
    items.forEach((item, index) => {
      const rec = recs[index];
      const payerIspb = rec?.pagador?.ispbParticipante ?? this.config.payerIspb;
      const cobr = issueRecurringCharge(
        item.txid,
        item.input,
        { rec, ...conflicts[index] },
        { payerIspb, endToEndId: endToEndId(payerIspb, item.now) },
        item.now,
      );
      if (cobr.ok) issued.push({ item, cobr: cobr.value });
      else outcomes.set(item, { ok: false, error: new ProblemException(cobr.problem) });
    });
    await this.store.insertRecurringCharges(
      m,
      issued.map(({ item, cobr }) => ({ client: item.client, cobr, dueOn: dueOn(cobr) })),
    );
    for (const { item, cobr } of issued) {
      notices.push({ client: item.client, notification: { kind: 'cobr', cobr: cobRNotificationView(cobr) } });
      outcomes.set(item, { ok: true, value: cobRView(cobr, this.config.receiver) });
    }
    return outcomes;
  }

  async getRecurringCharge(client: string, txid: string): Promise<CobRCompleta> {
    const cobr = (await this.store.findRecurringCharge(this.dataSource.manager, client, txid)) ?? refuse(Problems.cobRNotFound());
    return cobRView(cobr, this.config.receiver);
  }

  /** PATCH /cobr/{txid}: CobRRevisada allows one change, status CANCELADA. */
  reviseRecurringCharge(client: string, txid: string, body: unknown): Promise<CobRCompleta> {
    orRefuse(validateRecurringChargeRevision(body));
    return this.changeRecurringCharge(client, txid, (cobr, now) => cancelRecurringCharge(cobr, brasiliaDate(now), now));
  }

  /** POST /cobr/{txid}/retentativa/{data} */
  retryRecurringCharge(client: string, txid: string, data: string): Promise<CobRCompleta> {
    return this.changeRecurringCharge(client, txid, (cobr, now) => requestRetry(cobr, data, brasiliaDate(now), endToEndId(cobr.payerIspb, now), now));
  }

  /** Settles the scheduled attempts whose day has come in Brasília, by real time (the sweeper's work); how many were due. */
  async settleDueRecurringCharges(limit = 100): Promise<number> {
    const today = brasiliaDate(this.clock.now());
    const due = await this.store.dueRecurringCharges(this.dataSource.manager, today, limit);
    for (const { client, txid } of due) {
      await this.transaction(async (m, notices) => {
        const cobr = await this.store.findRecurringCharge(m, client, txid, true);
        if (!cobr) return;
        const settled = settleIfDue(cobr, today, this.clock.now());
        if (settled !== cobr) await this.saveRecurringCharge(m, client, settled, notices);
        else await this.store.updateRecurringCharge(m, client, cobr, dueOn(cobr)); // no longer due: keeps due_on true to the record
      });
    }
    return due.length;
  }

  // ---- WebhookRec, WebhookCobR ----

  async configureWebhook(kind: WebhookKind, client: string, body: unknown): Promise<void> {
    const url = orRefuse(validateWebhookUrl(body, WEBHOOK_PROBLEMS[kind].invalid));
    await this.store.setWebhook(this.dataSource.manager, kind, client, url, this.clock.now());
  }

  async getWebhook(kind: WebhookKind, client: string): Promise<WebhookRec> {
    return (await this.store.findWebhook(this.dataSource.manager, kind, client)) ?? refuse(WEBHOOK_PROBLEMS[kind].notFound());
  }

  async deleteWebhook(kind: WebhookKind, client: string): Promise<void> {
    if (!(await this.store.deleteWebhook(this.dataSource.manager, kind, client))) refuse(WEBHOOK_PROBLEMS[kind].notFound());
  }

  // ---- The payer and the payer's bank (/sim) ----

  /** The payer scans the recurrence's QR and accepts: journey 3 when it carries an immediate charge (paid now), else journey 2. */
  authorizeRecurrence(client: string, idRec: string): Promise<RecCompleta> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const { rec, solicitations } = await this.loadRecurrence(m, client, idRec, now, notices);
      const pagador = this.payerByQr(rec.vinculo.devedor);
      const approved = orRefuse(approve(rec, rec.activationTxid !== null ? 'JORNADA_3' : 'JORNADA_2', pagador, now));
      if (rec.activationTxid !== null) {
        // Journey 3: the composite QR pays the immediate charge in the same step; an expired one can no longer be paid.
        const cob = (await this.store.findCharge(m, client, rec.activationTxid, true)) ?? refuse(Problems.internal());
        if (cob.status === 'ATIVA' && isExpired(cob, now)) {
          refuse(
            Problems.recInvalid([
              violation(
                'rec.ativacao.dadosJornada.txid',
                'A cobrança imediata da ativação está expirada: a recorrência não pode mais ser autorizada com ela.',
                cob.txid,
              ),
            ]),
          );
        }
        if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') {
          refuse(
            Problems.recInvalid([
              violation(
                'rec.ativacao.dadosJornada.txid',
                'A cobrança imediata da ativação foi removida: a recorrência não pode mais ser autorizada com ela.',
                cob.txid,
              ),
            ]),
          );
        }
        await this.savePaidCharge(m, client, orRefuse(pay(cob, endToEndId(this.config.payerIspb, now), now)), notices);
      }
      await this.saveRecurrence(m, client, approved, notices);
      return recCompletaView(approved, { loc: await this.recLocation(m, client, approved), solicitations, now }, this.config.receiver);
    });
  }

  refuseRecurrence(client: string, idRec: string): Promise<RecCompleta> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const { rec, solicitations } = await this.loadRecurrence(m, client, idRec, now, notices);
      const rejected = orRefuse(reject(rec, now));
      await this.saveRecurrence(m, client, rejected, notices);
      return recCompletaView(rejected, { loc: await this.recLocation(m, client, rejected), solicitations, now }, this.config.receiver);
    });
  }

  /** The payer answers the alert in their banking app (journey 1). */
  answerSolicitation(client: string, idSolicRec: string, body: unknown): Promise<SolicRecCompleta> {
    const decision = orRefuse(validateDecision(body));
    return this.onSolicitation(client, idSolicRec, async (m, rec, s, now, notices) => {
      const answered = orRefuse(answer(s, decision, now));
      const { destinatario } = s;
      const payer: PagadorRec = { ...this.documentOf(destinatario), ispbParticipante: destinatario.ispbParticipante };
      const decided = orRefuse(decision === 'ACCEPT' ? approve(rec, 'JORNADA_1', payer, now) : reject(rec, now));
      await this.saveSolicitation(m, client, answered);
      await this.saveRecurrence(m, client, decided, notices);
      return solicRecView(answered, decided, this.config.receiver);
    });
  }

  /** The payer pays an immediate charge; one that activates a CRIADA recurrence approves it (journey 3). */
  payImmediateCharge(client: string, txid: string): Promise<CobCompleta> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const peek = (await this.store.findCharge(m, client, txid)) ?? refuse(Problems.cobNotFound());
      const rec = peek.idRec === null ? undefined : (await this.loadRecurrence(m, client, peek.idRec, now, notices)).rec;
      const cob = (await this.store.findCharge(m, client, txid, true)) ?? refuse(Problems.cobNotFound());
      const paid = orRefuse(pay(cob, endToEndId(this.config.payerIspb, now), now));
      await this.savePaidCharge(m, client, paid, notices);
      if (rec && rec.status === 'CRIADA' && rec.activationTxid === txid) {
        await this.saveRecurrence(m, client, orRefuse(approve(rec, 'JORNADA_3', this.payerByQr(rec.vinculo.devedor), now)), notices);
      }
      return cobView(paid, await this.location(m, client, paid.locId), this.config.receiver);
    });
  }

  /** The payer's institution debits the payer now for the pending attempt of a recurring charge, whatever its date. */
  payRecurringCharge(client: string, txid: string): Promise<CobRCompleta> {
    return this.changeRecurringCharge(client, txid, (cobr, now) => settle(cobr, now));
  }

  /** The payer's institution refuses the pending attempt now. */
  failRecurringCharge(client: string, txid: string): Promise<CobRCompleta> {
    return this.changeRecurringCharge(client, txid, (cobr, now) => refuseAttempt(cobr, now));
  }

  /**
   * The receiving side moves a payout now (/sim/pagamentos/{idEnvio}/status). Either way its automatic settlement is
   * over: a final status ends it, EM_PROCESSAMENTO holds the payout there until /sim moves it again.
   */
  setPayoutStatus(client: string, idEnvio: string, body: unknown): Promise<Pagamento> {
    const change = orRefuse(validatePayoutStatusChange(body));
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const payout = (await this.store.findPayout(m, client, idEnvio, true)) ?? refuse(Problems.payoutNotFound());
      const changed = orRefuse(changeStatus(payout, change, now));
      await this.savePayout(m, client, payout, changed, null, notices);
      return pagamentoView(changed);
    });
  }

  /**
   * The receiving bank returns (part of) a REALIZADO payout now (/sim/pagamentos/{idEnvio}/devolucao `{valor?, id?}`):
   * pushed like any change, the payout carrying every return.
   */
  returnPayout(client: string, idEnvio: string, body: unknown): Promise<Pagamento> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const payout = (await this.store.findPayout(m, client, idEnvio, true)) ?? refuse(Problems.payoutNotFound());
      const returned = orRefuse(returnPayout(payout, body, returnId(payout.destinatario.ispb, now), now));
      await this.store.updatePayout(m, client, returned, null);
      notices.push({ client, notification: { kind: 'pagamentos', pagamento: pagamentoView(returned) } });
      return pagamentoView(returned);
    });
  }

  // ---- helpers ----

  /** A charge just paid: stored, and its Pix pushed to the webhook of the key it was paid to (if any). */
  private async savePaidCharge(m: EntityManager, client: string, paid: CobRecord, notices: Notice[]): Promise<void> {
    await this.store.updateCharge(m, client, paid);
    if (paid.payment) notices.push({ client, notification: { kind: 'pix', pix: pixView(paid, paid.payment) } });
  }

  /** A refund after a step: stored, its automatic liquidation over, and its Pix (with every refund) pushed when it changed. */
  private async saveRefund(m: EntityManager, client: string, before: RefundRecord, after: RefundRecord, notices: Notice[]): Promise<RefundRecord> {
    await this.store.updateRefund(m, client, after, null);
    const cob = after.status !== before.status ? await this.store.findChargeByEndToEndId(m, client, after.endToEndId) : undefined;
    if (cob?.payment) notices.push({ client, notification: { kind: 'pix', pix: await this.pixWithRefunds(m, client, cob) } });
    return after;
  }

  private async pixWithRefunds(m: EntityManager, client: string, cob: CobRecord): Promise<PixRecebido> {
    const pix = pixView(cob, cob.payment as NonNullable<CobRecord['payment']>);
    const refunds = await this.store.findRefunds(m, client, pix.endToEndId);
    return refunds.length === 0 ? pix : { ...pix, devolucoes: refunds.map(devolucaoView) };
  }

  /** A payout after a step: stored with its due time, and pushed when its status changed. */
  private async savePayout(m: EntityManager, client: string, before: PayoutRecord, after: PayoutRecord, dueAt: Date | null, notices: Notice[]): Promise<void> {
    await this.store.updatePayout(m, client, after, dueAt);
    if (after.status !== before.status) notices.push({ client, notification: { kind: 'pagamentos', pagamento: pagamentoView(after) } });
  }

  private async transaction<T>(work: (m: EntityManager, notices: Notice[]) => Promise<T>): Promise<T> {
    const notices: Notice[] = [];
    // READ COMMITTED, PostgreSQL's default (naming it would cost TypeORM a SET TRANSACTION per transaction).
    const result = await this.dataSource.transaction((m) => work(m, notices));
    const webhooks = new Map<string, Promise<{ webhookUrl: string } | undefined>>();
    for (const { client, notification } of notices) {
      // The Pix webhook is the one of the key paid to; the others are one per client.
      const chave = notification.kind === 'pix' ? (notification.pix.chave ?? '') : '';
      const key = `${notification.kind} ${client} ${chave}`;
      const lookup =
        webhooks.get(key) ??
        (notification.kind === 'pix'
          ? this.store.findPixWebhook(this.dataSource.manager, client, chave)
          : this.store.findWebhook(this.dataSource.manager, notification.kind, client));
      webhooks.set(key, lookup);
      const webhook = await lookup;
      if (webhook) this.notifier.notify(webhook.webhookUrl, notification);
    }
    return result;
  }

  /** One step of a recurring charge (locked alone: no other row is needed), stored and pushed; the CobRCompleta after it. */
  private changeRecurringCharge(client: string, txid: string, step: (cobr: CobRRecord, now: Date) => Result<CobRRecord>): Promise<CobRCompleta> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const cobr = (await this.store.findRecurringCharge(m, client, txid, true)) ?? refuse(Problems.cobRNotFound());
      const changed = orRefuse(step(cobr, now));
      await this.saveRecurringCharge(m, client, changed, notices);
      return cobRView(changed, this.config.receiver);
    });
  }

  private async saveRecurringCharge(m: EntityManager, client: string, cobr: CobRRecord, notices: Notice[]): Promise<void> {
    await this.store.updateRecurringCharge(m, client, cobr, dueOn(cobr));
    notices.push({ client, notification: { kind: 'cobr', cobr: cobRNotificationView(cobr) } });
  }

  /** The recurrence (locked) and its solicitations (locked, brought up to date, expiring the recurrence when due). */
  private async loadRecurrence(m: EntityManager, client: string, idRec: string, now: Date, notices: Notice[]) {
    return (await this.loadRecurrenceIfAny(m, client, idRec, now, notices)) ?? refuse(Problems.recNotFound());
  }

  private async loadRecurrenceIfAny(m: EntityManager, client: string, idRec: string, now: Date, notices: Notice[]) {
    const key = [{ client, idRec }];
    const rec = (await this.store.lockRecurrences(m, key)).get(idRec);
    return rec && this.bringUpToDate(m, client, rec, (await this.store.lockSolicitationsOf(m, key)).get(idRec) ?? [], now, notices);
  }

  /** A locked recurrence's locked solicitations brought up to date, expiring the recurrence when due. */
  private async bringUpToDate(m: EntityManager, client: string, locked: RecRecord, storedSolicitations: SolicRecord[], now: Date, notices: Notice[]) {
    let rec = locked;
    const solicitations: SolicRecord[] = [];
    for (const stored of storedSolicitations) {
      const settled = advance(stored, now, this.config.alerts);
      if (settled !== stored) await this.saveSolicitation(m, client, settled);
      if (settled.status === 'EXPIRADA' && stored.status !== 'EXPIRADA' && rec.status === 'CRIADA') {
        rec = expire(rec, new Date(settled.expiresAt));
        await this.saveRecurrence(m, client, rec, notices);
      }
      solicitations.push(settled);
    }
    return { rec, solicitations };
  }

  private async onSolicitation<T>(
    client: string,
    idSolicRec: string,
    work: (m: EntityManager, rec: RecRecord, s: SolicRecord, now: Date, notices: Notice[]) => Promise<T>,
  ): Promise<T> {
    const now = this.clock.now();
    return this.transaction(async (m, notices) => {
      const peek = (await this.store.findSolicitation(m, client, idSolicRec)) ?? refuse(Problems.solicRecNotFound());
      const { rec, solicitations } = await this.loadRecurrence(m, client, peek.idRec, now, notices);
      const s = solicitations.find((candidate) => candidate.idSolicRec === idSolicRec) ?? refuse(Problems.solicRecNotFound());
      return work(m, rec, s, now, notices);
    });
  }

  private dueAt(s: SolicRecord): Date | null {
    const next = nextStep(s, this.config.alerts);
    return next ? new Date(next.at) : null;
  }

  private async saveSolicitation(m: EntityManager, client: string, s: SolicRecord): Promise<SolicRecord> {
    await this.store.updateSolicitation(m, client, s, this.dueAt(s));
    return s;
  }

  private async saveRecurrence(m: EntityManager, client: string, rec: RecRecord, notices: Notice[]): Promise<void> {
    await this.store.updateRecurrence(m, client, rec);
    notices.push({ client, notification: { kind: 'rec', rec: recNotificationView(rec) } });
  }

  private async freeLocation(m: EntityManager, client: string, id: number, v: Violacao[]): Promise<LocationRecord | undefined> {
    const loc = await this.store.findLocation(m, client, id, true);
    if (!loc || loc.kind !== 'rec') v.push(violation('rec.loc', 'O location referenciado por rec.loc inexiste.', id));
    else if (loc.idRec !== null) v.push(violation('rec.loc', 'O location referenciado por rec.loc já está sendo utilizado por outra recorrência.', id));
    else return loc;
    return undefined;
  }

  private async freeActivationCharge(m: EntityManager, client: string, txid: string, v: Violacao[]): Promise<CobRecord | undefined> {
    const cob = await this.store.findCharge(m, client, txid, true);
    const path = 'rec.ativacao.dadosJornada.txid';
    if (!cob) v.push(violation(path, 'O campo rec.ativacao.dadosJornada.txid não corresponde a uma cobrança imediata existente.', txid));
    else if (cob.idRec !== null)
      v.push(violation(path, 'A cobrança imediata referenciada por rec.ativacao.dadosJornada.txid já está vinculada a outra recorrência.', txid));
    else if (cob.status !== 'ATIVA') v.push(violation(path, 'A cobrança imediata referenciada por rec.ativacao.dadosJornada.txid não está ATIVA.', txid));
    else return cob;
    return undefined;
  }

  private async location(m: EntityManager, client: string, id: number): Promise<LocationRecord> {
    return (await this.store.findLocation(m, client, id)) ?? refuse(Problems.internal());
  }

  private async recLocation(m: EntityManager, client: string, rec: RecRecord): Promise<LocationRecord | undefined> {
    return rec.locId === null ? undefined : this.store.findLocation(m, client, rec.locId);
  }

  private documentOf(d: Documento): Documento {
    return d.cpf !== undefined ? { cpf: d.cpf } : { cnpj: d.cnpj as string };
  }

  /** A payer who scans the QR: the debtor, from the simulated payer's institution. */
  private payerByQr(devedor: Documento): PagadorRec {
    return { ...this.documentOf(devedor), ispbParticipante: this.config.payerIspb };
  }
}
