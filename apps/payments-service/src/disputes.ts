import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  DisputeListResponse,
  DisputeReason,
  DisputeResponse,
  NATUREZA_OF_REASON,
  paginationOf,
  SandboxDisputeRequest,
  Tenant,
  Topics,
  validateDefence,
  validateListDisputes,
  validatePixChargeId,
  validateSandboxDispute,
} from '@pixauto/contracts';
import { Banks, centavosToValor, DesfechoInfracao, Infracao, InfracaoMotivo, valorToCentavos } from '@pixauto/bank';
import { Messages, notFound, refuse, validation } from '@pixauto/errors';
import { EventStore, SqlStatement } from '@pixauto/event-store';
import {
  claimDueConclusions,
  DisputeOutcome,
  DisputeRef,
  evidenceSql,
  findDispute,
  findEvidence,
  findPixChargeById,
  listDisputes,
  nextDisputeId,
  nextEvidenceIds,
  PIX_CHARGE_STREAM,
  pixCharge,
  PixChargeCommand,
  pixChargeStreamId,
  projectPixCharge,
  sandboxConclusionSql,
} from '@pixauto/payments';
import { Clock, isoUtc } from '@pixauto/pix';
import { CLOCK, PeriodicTask } from '@pixauto/runtime';

const DAY_MS = 86_400_000;
const MOTIVO_OF_REASON: Record<DisputeReason, InfracaoMotivo> = { FRAUD: 'FRAUDE', OPERATIONAL_FLAW: 'FALHA_OPERACIONAL', PIX_AUTOMATICO: 'PIX_AUTOMATICO' };
const DESFECHO_OF_OUTCOME: Record<SandboxDisputeRequest['outcome'], DesfechoInfracao> = {
  RETURNED: 'DEVOLVER',
  PARTIALLY_RETURNED: 'DEVOLVER_PARCIAL',
  REJECTED: 'REJEITAR',
};

/**
 * Disputes of the Pix a merchant received (docs/decisions/disputes.md): each is an event on its payment's stream, so
 * the block, the refunds and the return are judged together. The bank reports the infraction (in the sandbox, its
 * simulated payer's bank opens it), the merchant defends it once before the deadline, the bank concludes it.
 */
@Injectable()
export class Disputes {
  private readonly logger = new Logger('Disputes');

  constructor(
    private readonly eventStore: EventStore,
    private readonly dataSource: DataSource,
    private readonly banks: Banks,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /v2/disputes: the period list, by opened_at, newest first. */
  async list(tenant: Tenant, query: unknown): Promise<DisputeListResponse> {
    const request = validateListDisputes(query);
    if (!request.ok) return refuse(request.refusal);
    const { total, disputes } = await listDisputes(this.dataSource.manager, tenant, request.value);
    return { pagination: paginationOf(request.value, total), disputes };
  }

  /** GET /v2/disputes/:id */
  async get(tenant: Tenant, idParam: string | undefined): Promise<DisputeResponse> {
    return (await this.find(tenant, idParam)).response;
  }

  /** GET /v2/disputes/:id/evidence/:evidence_id: one file of the account's defence, in base64. */
  async evidence(tenant: Tenant, idParam: string | undefined, evidenceParam: string | undefined) {
    const { ref } = await this.find(tenant, idParam);
    const evidenceId = validatePixChargeId(evidenceParam);
    if (!evidenceId.ok) return refuse(validation(Messages.disputes.evidenceIdInvalid));
    const file = (await findEvidence(this.dataSource.manager, tenant, ref.id, evidenceId.value)) ?? refuse(notFound(Messages.disputes.evidenceNotFound));
    return { id: evidenceId.value, file_name: file.file_name, content_type: file.content_type, content_base64: file.content.toString('base64') };
  }

  /**
   * POST /v2/disputes/:id/defence: the defence and its files in one transaction (refused: neither), then sent to the
   * bank. The deadline is judged on the merchant's clock (the sandbox's test clock), then by the bank on the same.
   */
  async defend(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<DisputeResponse> {
    const { ref } = await this.find(tenant, idParam);
    const request = validateDefence(body);
    if (!request.ok) return refuse(request.refusal);
    const files = request.value.evidence;
    const ids = await nextEvidenceIds(this.dataSource.manager, files.length);
    const now = this.clock.now(tenant);
    const defence = {
      text: request.value.text,
      evidence: files.map((file, i) => ({ id: ids[i], file_name: file.file_name, content_type: file.content_type, size_bytes: file.content.length })),
      submitted_at: isoUtc(now),
    };
    const outcome = await this.execute(
      tenant,
      ref.chargeTransactionId,
      { type: 'DefendDispute', disputeId: ref.id, defence },
      evidenceSql(
        tenant,
        ref.id,
        files.map((file, i) => ({ id: ids[i], file })),
      ),
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    try {
      await this.banks.of(tenant, now).defendInfraction(ref.infractionId, {
        texto: defence.text,
        anexos: defence.evidence.map((e) => ({ nome: e.file_name, tipo: e.content_type, tamanho: e.size_bytes })),
      });
    } catch (error) {
      // Recorded is recorded: the merchant defended in time; a bank that did not take it is ours to follow up.
      this.logger.warn(`defence of dispute ${ref.id} not taken by the bank: ${String(error)}`);
    }
    return (await this.find(tenant, String(ref.id))).response;
  }

  /**
   * POST /v2/sandbox/transactions/:id/dispute: the simulated payer's bank reports an infraction on a paid charge, with
   * the outcome and the timing chosen (days on the tenant's test clock). Judged on the stream before the bank is asked.
   */
  async sandboxOpen(tenant: Tenant, idParam: string | undefined, body: unknown): Promise<DisputeResponse> {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(id.refusal);
    const request = validateSandboxDispute(body);
    if (!request.ok) return refuse(request.refusal);
    const r = request.value;
    const charge = (await findPixChargeById(this.dataSource.manager, tenant, id.value)) ?? refuse(notFound(Messages.refunds.transactionNotFound));
    const state = await this.eventStore.load(pixCharge, pixChargeStreamId(tenant, charge.transactionId));
    const now = this.clock.now(tenant);
    const disputeId = await nextDisputeId(this.dataSource.manager);
    const claimed = r.amount_centavos ?? (state.status === 'NONE' ? 0 : state.charge.amount_centavos);
    const toOpen = {
      id: disputeId,
      reason: r.reason,
      claimed_centavos: claimed,
      defence_deadline: isoUtc(new Date(now.getTime() + r.defence_days * DAY_MS)),
      opened_at: isoUtc(now),
    };
    // The refusals a dispute has (not PAID, one in progress) before the bank hears of it.
    const dry = pixCharge.decide({ type: 'OpenDispute', dispute: { ...toOpen, infraction_id: `dry-${disputeId}` } }, state);
    if (!dry.ok) return refuse(dry.refusal);
    if (state.status === 'NONE' || !state.charge.e2e_id) return refuse(validation(Messages.disputes.notTraceable));
    if (claimed > state.charge.amount_centavos) return refuse(validation(Messages.disputes.claimExceeds(centavosToValor(state.charge.amount_centavos))));
    const infracao = await this.banks.sandboxPayer.at(now).openInfraction({
      endToEndId: state.charge.e2e_id,
      motivo: MOTIVO_OF_REASON[r.reason],
      valor: centavosToValor(claimed),
      prazoDefesa: toOpen.defence_deadline,
      desfecho: DESFECHO_OF_OUTCOME[r.outcome],
    });
    const outcome = await this.execute(tenant, charge.transactionId, { type: 'OpenDispute', dispute: { ...toOpen, infraction_id: infracao.id } }, [
      sandboxConclusionSql(disputeId, isoUtc(new Date(now.getTime() + r.conclude_after_days * DAY_MS))),
    ]);
    if (!outcome.ok) return refuse(outcome.refusal);
    return (await this.find(tenant, String(disputeId))).response;
  }

  /** The sandbox's conclusions whose time has come on their tenant's clock. True when there may be more. */
  async concludeDue(limit: number): Promise<boolean> {
    const due = await claimDueConclusions(this.dataSource.manager, this.clock.now(), limit);
    await Promise.all(due.map((ref) => this.conclude(ref).catch((error: unknown) => this.logger.warn(`dispute ${ref.id} not concluded: ${String(error)}`))));
    return due.length === limit;
  }

  /** The banks conclude the dispute: at most what it blocks is returned, as a devolução of the reason's natureza. */
  private async conclude(ref: DisputeRef): Promise<void> {
    const now = this.clock.now(ref.tenant);
    const infracao = await this.banks.sandboxPayer.at(now).concludeInfraction(ref.infractionId, centavosToValor(ref.record.blocked_centavos));
    const outcome = outcomeOf(infracao, ref.record.reason);
    if (!outcome) return;
    const recorded = await this.execute(ref.tenant, ref.chargeTransactionId, { type: 'ConcludeDispute', infractionId: ref.infractionId, outcome });
    if (!recorded.ok) refuse(recorded.refusal);
  }

  private async find(tenant: Tenant, idParam: string | undefined) {
    const id = validatePixChargeId(idParam);
    if (!id.ok) return refuse(validation(Messages.disputes.pathIdInvalid));
    return (await findDispute(this.dataSource.manager, tenant, id.value)) ?? refuse(notFound(Messages.disputes.notFound));
  }

  private execute(tenant: Tenant, transactionId: string, command: PixChargeCommand, withEvents: SqlStatement[] = []) {
    return this.eventStore.handle(pixCharge, command, {
      streamId: pixChargeStreamId(tenant, transactionId),
      streamType: PIX_CHARGE_STREAM,
      tenant,
      now: this.clock.now(tenant),
      topic: Topics.payments.name,
      // Rows that belong with the events (a defence's files, the sandbox's timing): written in their transaction.
      project: (events, state) => [...projectPixCharge(events, state), ...(events.length > 0 ? withEvents : [])],
    });
  }
}

/** What the bank's concluded infraction means for the dispute; undefined while it is not concluded. */
function outcomeOf(infracao: Infracao, reason: DisputeReason): DisputeOutcome | undefined {
  if (infracao.status !== 'CONCLUIDA') return undefined;
  const closedAt = isoUtc(new Date(infracao.conclusao ?? infracao.criacao));
  if (infracao.resultado !== 'DEVOLVIDO' || !infracao.devolucao) return { status: 'REJECTED', closed_at: closedAt };
  const d = infracao.devolucao;
  const natureza =
    d.natureza === 'MED_FRAUDE' || d.natureza === 'MED_OPERACIONAL' || d.natureza === 'MED_PIX_AUTOMATICO' ? d.natureza : NATUREZA_OF_REASON[reason];
  return {
    status: 'RETURNED',
    return: {
      amount_centavos: valorToCentavos(d.valor) ?? 0,
      e2e_id: d.rtrId,
      natureza,
      returned_at: isoUtc(new Date(d.horario.liquidacao ?? d.horario.solicitacao)),
    },
  };
}

/** The dispute conclusions of the sandbox (its simulated banks conclude when the tenant's test clock says so). */
export const disputeConclusions = (disputes: Disputes): PeriodicTask => new PeriodicTask('DisputeConclusions', 500, () => disputes.concludeDue(20));
