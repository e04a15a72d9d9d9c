import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { SolicitationResponse, Tenant, Topics, validateCancelSolicitation, validateCreateSolicitation } from '@pixauto/contracts';
import { Banks, fromBankSolicitationStatus, SolicRecCompleta, toBankDocument } from '@pixauto/bank';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { Clock } from '@pixauto/pix';
import { CLOCK } from '@pixauto/runtime';
import {
  claimDueSolicitations,
  claimSolicitationsToFollow,
  findKnownRecurrence,
  findSolicitation,
  hasActiveSolicitation,
  KnownRecurrence,
  PendingSolicitation,
  projectSolicitation,
  solicitation,
  SOLICITATION_STREAM,
  SolicitationCommand,
  solicitationStreamId,
} from '@pixauto/solicitations';

const UNIQUE_VIOLATION = '23505';
/** How long a create waits for a recurrence created a moment ago to reach this service over Kafka. */
const RECURRENCE_ARRIVAL_MS = 3000;

/** The solicitation use cases (docs/decisions/recurrences.md): the bank first, then our events. */
@Injectable()
export class Solicitations {
  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(tenant: Tenant, body: unknown): Promise<SolicitationResponse> {
    const request = validateCreateSolicitation(body);
    if (!request.ok) return refuse(request.refusal);
    const { recurrence_id, expires_at, destination } = request.value;
    const known = await this.recurrence(tenant, recurrence_id);
    if (!known) return refuse(notFound(Messages.solicitations.recurrenceNotFound));
    if (known.status !== 'CREATED') return refuse(validation(Messages.solicitations.recurrenceNotAwaiting(known.status)));
    if (await hasActiveSolicitation(this.dataSource.manager, tenant, recurrence_id)) return refuse(validation(Messages.solicitations.alreadyActive));

    const bank = this.banks.of(tenant);
    const solicitationAtBank = await bank.createSolicitation({
      idRec: known.bankIdRec,
      calendario: { dataExpiracaoSolicitacao: new Date(expires_at).toISOString() },
      destinatario: {
        ...toBankDocument(destination.document_number),
        agencia: destination.agency,
        conta: destination.account,
        ispbParticipante: destination.ispb,
      },
    });
    const solicitationId = randomUUID();
    try {
      await this.execute(tenant, solicitationId, {
        type: 'CreateSolicitation',
        data: {
          solicitation_id: solicitationId,
          recurrence_id,
          expires_at: new Date(expires_at).toISOString(),
          destination,
          bank: { id_solic_rec: solicitationAtBank.idSolicRec },
        },
      });
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== UNIQUE_VIOLATION || constraint !== 'solicitations_one_active') throw error;
      await bank.cancelSolicitation(solicitationAtBank.idSolicRec).catch(() => undefined);
      return refuse(validation(Messages.solicitations.alreadyActive));
    }
    return this.get(tenant, solicitationId);
  }

  async get(tenant: Tenant, solicitationId: string): Promise<SolicitationResponse> {
    return (await findSolicitation(this.dataSource.manager, tenant, solicitationId)) ?? refuse(notFound(Messages.solicitations.notFound));
  }

  /** 4.7: decided before the bank hears of it; the recurrence is left as it is. */
  async cancel(tenant: Tenant, solicitationId: string, body: unknown): Promise<SolicitationResponse> {
    const request = validateCancelSolicitation(body);
    if (!request.ok) return refuse(request.refusal);
    const state = await this.eventStore.load(solicitation, solicitationStreamId(tenant, solicitationId));
    const decision = solicitation.decide({ type: 'CancelSolicitation' }, state);
    if (!decision.ok) return refuse(decision.refusal);
    if (state.status !== 'NONE' && decision.events.length > 0) {
      await this.banks.of(tenant).cancelSolicitation(state.data.bank.id_solic_rec);
      await this.execute(tenant, solicitationId, { type: 'CancelSolicitation' });
    }
    return this.get(tenant, solicitationId);
  }

  /** Sandbox: the payer answers in their banking app (sandbox only). */
  async payerAnswers(tenant: Tenant, solicitationId: string, decision: 'ACCEPT' | 'REJECT'): Promise<SolicitationResponse> {
    const state = await this.eventStore.load(solicitation, solicitationStreamId(tenant, solicitationId));
    if (state.status === 'NONE') return refuse(notFound(Messages.solicitations.notFound));
    if (state.outcome !== 'PENDING') return refuse(validation(Messages.solicitations.answered(state.outcome)));
    const answered = await this.banks.sandboxPayer.answerSolicitation(state.data.bank.id_solic_rec, decision);
    await this.apply(tenant, solicitationId, answered);
    return this.get(tenant, solicitationId);
  }

  /** The durable deadline: pending solicitations past expires_at expire, whenever this runs again. */
  async expireDue(): Promise<number> {
    const claim = await claimDueSolicitations(this.dataSource.manager, this.clock.now());
    await claim.hold(async (due) => {
      for (const pending of due) await this.execute(pending.tenant, pending.solicitationId, { type: 'ExpireSolicitation' }, { ignoreRefusals: true });
    });
    return claim.items.length;
  }

  /** The BCB API pushes no solicitation changes: the alert's path and the payer's answer are read from the bank. */
  async followBank(stage: 'alert' | 'answer'): Promise<void> {
    const claim = await claimSolicitationsToFollow(this.dataSource.manager, stage);
    await claim.hold(async (pending) => {
      for (const one of pending) {
        const atBank = await this.banks
          .of(one.tenant)
          .getSolicitation(one.bankIdSolicRec)
          .catch(() => undefined);
        if (atBank) await this.apply(one.tenant, one.solicitationId, atBank, one);
      }
    });
  }

  private async apply(tenant: Tenant, solicitationId: string, atBank: SolicRecCompleta, known?: PendingSolicitation): Promise<void> {
    const { status, outcome } = fromBankSolicitationStatus(atBank.status, atBank.atualizacao);
    const commands: SolicitationCommand[] = [];
    if (status === 'SENT' || status === 'RECEIVED') {
      if (known?.status !== status) commands.push({ type: 'ProgressAlert', status });
    }
    if (outcome === 'ACCEPTED' || outcome === 'REJECTED') commands.push({ type: 'RecordAnswer', answer: outcome });
    for (const command of commands) await this.execute(tenant, solicitationId, command, { ignoreRefusals: true });
  }

  /** The recurrence as this service learnt it from Kafka; one created a moment ago may still be on its way. */
  private async recurrence(tenant: Tenant, recurrenceId: string): Promise<KnownRecurrence | undefined> {
    const deadline = performance.now() + RECURRENCE_ARRIVAL_MS;
    for (;;) {
      const known = await findKnownRecurrence(this.dataSource.manager, tenant, recurrenceId);
      if (known || performance.now() > deadline) return known;
      await sleep(100);
    }
  }

  private async execute(tenant: Tenant, solicitationId: string, command: SolicitationCommand, options: { ignoreRefusals?: boolean } = {}): Promise<void> {
    const outcome = await this.eventStore.handle(solicitation, command, {
      streamId: solicitationStreamId(tenant, solicitationId),
      streamType: SOLICITATION_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.solicitations.name,
      project: projectSolicitation,
    });
    if (!outcome.ok && !options.ignoreRefusals) refuse(outcome.refusal);
  }
}
