import type {
  CobCompleta,
  CobRCompleta,
  Documento,
  LocRec,
  PagadorRec,
  Problema,
  RecCompleta,
  RecGerada,
  SolicRecCompleta,
  Violacao,
  WebhookRec,
} from '@pixauto/bank';
import { brasiliaDate, Clock } from '@pixauto/pix';
import { DataSource, EntityManager } from 'typeorm';
import { SimulatorConfig } from './config';
import { isExpired, newCharge, pay, reviseCharge } from './domain/charge';
import { cycleIndex } from './domain/cycle';
import { endToEndId, locationUrl, recurrenceId, solicitationId } from './domain/identifiers';
import { orRefuse, ProblemException, Problems, Result, violation } from './domain/problems';
import { approve, expire, newRecurrence, reject, revise } from './domain/recurrence';
import { CobRecord, CobRRecord, LocationRecord, RecRecord, SolicRecord, WebhookKind } from './domain/records';
import { cancelRecurringCharge, cycleTaken, dueOn, issueRecurringCharge, refuseAttempt, requestRetry, settle, settleIfDue, txidInUse } from './domain/recurring-charge';
import { advance, answer, cancel, isOpen, newSolicitation, nextStep } from './domain/solicitation';
import {
  validateDecision,
  validateNewCharge,
  validateNewRecurrence,
  validateNewRecurringCharge,
  validateNewSolicitation,
  validateRecurrenceRevision,
  validateRecurringChargeRevision,
  validateSolicitationRevision,
  validateWebhookUrl,
} from './domain/validation';
import { cobRNotificationView, cobRView, cobView, locRecView, recCompletaView, recGeradaView, recNotificationView, solicRecView } from './domain/views';
import { BankStore, uniqueViolationOf } from './store/bank-store';
import { Notification, WebhookNotifier } from './webhook-notifier';

/** A status change (of a recurrence, or of a recurring charge or its attempts) to push once its transaction has committed. */
interface Notice {
  client: string;
  notification: Notification;
}

const WEBHOOK_PROBLEMS: Record<WebhookKind, { invalid: (v: Violacao[]) => Problema; notFound: () => Problema }> = {
  rec: { invalid: Problems.webhookRecInvalid, notFound: Problems.webhookRecNotFound },
  cobr: { invalid: Problems.webhookCobRInvalid, notFound: Problems.webhookCobRNotFound },
};

const refuse = (problem: Problema): never => {
  throw new ProblemException(problem);
};

/**
 * The simulated bank: each operation is one transaction that loads what it needs (locked, in a fixed order:
 * recurrence, its solicitations, charges), applies the pure rules of domain/, stores the result, and answers
 * the BCB view. Status changes of recurrences and of recurring charges are pushed to the client's webhooks after
 * the commit. "Now" is the clock's: real time, or a request's x-simulated-now when later (simulated-clock.ts).
 */
export class SimulatedBank {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BankStore,
    private readonly clock: Clock,
    private readonly config: SimulatorConfig,
    private readonly notifier: WebhookNotifier,
  ) {}

  // ---- PayloadLocationRec ----

  createRecurrenceLocation(client: string): Promise<LocRec> {
    return this.transaction(async (m) => locRecView(await this.store.insertLocation(m, client, 'rec', locationUrl(this.config.publicHost, 'rec'), this.clock.now())));
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
            violation('solicrec.idRec', `A recorrência encontra-se com o status ${rec.status}; somente uma recorrência CRIADA pode ser solicitada ao usuário pagador.`, rec.idRec),
          ]),
        );
      }
      if (solicitations.some(isOpen)) refuse(Problems.solicRecInvalid([violation('solicrec.idRec', 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', rec.idRec)]));
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

  // ---- CobR ----

  /** PUT /cobr/{txid}: under the recurrence's lock, so that PUTs for one recurrence (and one cycle) take turns. */
  createRecurringCharge(client: string, txid: string, body: unknown): Promise<CobRCompleta> {
    const now = this.clock.now();
    const input = orRefuse(validateNewRecurringCharge(txid, body, brasiliaDate(now)));
    return this.transaction(async (m, notices) => {
      const known = (await this.store.findRecurrence(m, client, input.idRec)) !== undefined;
      const rec = known ? (await this.loadRecurrence(m, client, input.idRec, now, notices)).rec : undefined;
      const context = {
        rec,
        // txids identify the client's charges of every kind (immediate or recurring) for reconciliation.
        txidInUse: (await this.store.findRecurringCharge(m, client, txid)) !== undefined || (await this.store.findCharge(m, client, txid)) !== undefined,
        cycleTaken: rec !== undefined && (await this.store.hasLiveRecurringChargeInCycle(m, rec.idRec, cycleIndex(rec.calendario, input.dataDeVencimento))),
      };
      const payerIspb = rec?.pagador?.ispbParticipante ?? this.config.payerIspb;
      const cobr = orRefuse(issueRecurringCharge(txid, input, context, { payerIspb, endToEndId: endToEndId(payerIspb, now) }, now));
      try {
        await this.store.insertRecurringCharge(m, client, cobr, dueOn(cobr));
      } catch (error) {
        // The checks above ran under the recurrence's lock, which covers one recurrence's cycles but not the same txid
        // under two recurrences at once: the unique indexes have the last word.
        const constraint = uniqueViolationOf(error);
        if (constraint === undefined) throw error;
        refuse(Problems.cobRInvalid([constraint === 'recurring_charges_one_per_cycle' ? cycleTaken(input.dataDeVencimento) : txidInUse(txid)]));
      }
      notices.push({ client, notification: { kind: 'cobr', cobr: cobRNotificationView(cobr) } });
      return cobRView(cobr, this.config.receiver);
    });
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
              violation('rec.ativacao.dadosJornada.txid', 'A cobrança imediata da ativação está expirada: a recorrência não pode mais ser autorizada com ela.', cob.txid),
            ]),
          );
        }
        await this.store.updateCharge(m, client, orRefuse(pay(cob, endToEndId(this.config.payerIspb, now), now)));
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
      await this.store.updateCharge(m, client, paid);
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

  // ---- helpers ----

  private async transaction<T>(work: (m: EntityManager, notices: Notice[]) => Promise<T>): Promise<T> {
    const notices: Notice[] = [];
    const result = await this.dataSource.transaction('READ COMMITTED', (m) => work(m, notices));
    for (const { client, notification } of notices) {
      const webhook = await this.store.findWebhook(this.dataSource.manager, notification.kind, client);
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
    let rec = (await this.store.findRecurrence(m, client, idRec, true)) ?? refuse(Problems.recNotFound());
    const solicitations: SolicRecord[] = [];
    for (const stored of await this.store.solicitationsOf(m, client, idRec, true)) {
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
    else if (cob.idRec !== null) v.push(violation(path, 'A cobrança imediata referenciada por rec.ativacao.dadosJornada.txid já está vinculada a outra recorrência.', txid));
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
