// A recurrence's life at the bank (RecStatus): CRIADA → APROVADA | REJEITADA | EXPIRADA | CANCELADA, and
// APROVADA → CANCELADA. Pure: each transition returns the new record or the spec's refusal.
import type { Atualizacao, PagadorRec, RecStatus, TipoJornada } from '@pixauto/bank';
import { ok, Problems, refused, Result, violation } from './problems';
import { RecRecord } from './records';
import { NewRecurrence, RecurrenceRevision } from './validation';

const ENDED: readonly RecStatus[] = ['REJEITADA', 'EXPIRADA', 'CANCELADA'];
export const hasEnded = (rec: Pick<RecRecord, 'status'>): boolean => ENDED.includes(rec.status);

const step = (rec: RecRecord, status: RecStatus, at: Date): Atualizacao<RecStatus>[] => [...rec.atualizacao, { status, data: at.toISOString() }];

export function newRecurrence(idRec: string, input: NewRecurrence, at: Date): RecRecord {
  return {
    idRec,
    status: 'CRIADA',
    vinculo: input.vinculo,
    calendario: input.calendario,
    valor: input.valor,
    politicaRetentativa: input.politicaRetentativa,
    ...(input.convenio !== undefined && { convenio: input.convenio }),
    locId: input.loc ?? null,
    activationTxid: input.activationTxid ?? null,
    tipoJornada: 'AGUARDANDO_DEFINICAO',
    pagador: null,
    encerramento: null,
    atualizacao: [{ status: 'CRIADA', data: at.toISOString() }],
  };
}

const notAwaiting = (rec: RecRecord) =>
  refused<RecRecord>(
    Problems.recInvalid([
      violation(
        'rec.status',
        `A recorrência encontra-se com o status ${rec.status}; somente uma recorrência CRIADA pode ser aprovada ou rejeitada.`,
        rec.status,
      ),
    ]),
  );

/** The payer authorized: by QR (journey 2), with the immediate charge (journey 3), or answering a solicitation (journey 1). */
export function approve(rec: RecRecord, journey: Exclude<TipoJornada, 'AGUARDANDO_DEFINICAO'>, pagador: PagadorRec, at: Date): Result<RecRecord> {
  if (rec.status !== 'CRIADA') return notAwaiting(rec);
  return ok({
    ...rec,
    status: 'APROVADA',
    tipoJornada: journey,
    // RecAtivacao: dadosJornada.txid is kept for journey 3 only ("deve ser removido ... jornadas 1, 2 ou 4").
    activationTxid: journey === 'JORNADA_3' ? rec.activationTxid : null,
    pagador,
    atualizacao: step(rec, 'APROVADA', at),
  });
}

/** The payer refused (by QR or answering a solicitation). AP13: the payer's rejection (RecEncerramento.rejeicao). */
export function reject(rec: RecRecord, at: Date): Result<RecRecord> {
  if (rec.status !== 'CRIADA') return notAwaiting(rec);
  return ok({
    ...rec,
    status: 'REJEITADA',
    encerramento: { rejeicao: { codigo: 'AP13', descricao: 'Recorrência rejeitada pelo usuário pagador' } },
    atualizacao: step(rec, 'REJEITADA', at),
  });
}

/** The solicitation's deadline passed unanswered. */
export function expire(rec: RecRecord, at: Date): RecRecord {
  return rec.status === 'CRIADA' ? { ...rec, status: 'EXPIRADA', atualizacao: step(rec, 'EXPIRADA', at) } : rec;
}

const ended = () => Problems.recInvalid([violation('rec.status', 'A recorrência encontra-se expirada, cancelada ou rejeitada.')]);
const onlyWhileCreated = (field: string) =>
  violation(field, `O campo ${field} somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.`);

/**
 * PATCH /rec/{idRec} (RecOperacaoInvalida for PATCH): nothing changes once the recurrence has ended; loc and
 * dataInicial only while CRIADA; the journey 3 charge only while CRIADA (the journey is then still open).
 * Cancelling is the receiving user's (SLCR, as in the spec's example of a cancelled recurrence).
 */
export function revise(rec: RecRecord, revision: RecurrenceRevision, at: Date): Result<RecRecord> {
  if (hasEnded(rec)) return refused(ended());
  const v = [];
  if (rec.status !== 'CRIADA') {
    if (revision.loc !== undefined) v.push(onlyWhileCreated('rec.loc'));
    if (revision.dataInicial !== undefined) v.push(onlyWhileCreated('rec.calendario.dataInicial'));
    if (revision.activationTxid !== undefined) v.push(onlyWhileCreated('rec.ativacao.dadosJornada.txid'));
  }
  if (v.length > 0) return refused(Problems.recInvalid(v));
  let revised: RecRecord = {
    ...rec,
    vinculo: revision.devedorNome === undefined ? rec.vinculo : { ...rec.vinculo, devedor: { ...rec.vinculo.devedor, nome: revision.devedorNome } },
    calendario: revision.dataInicial === undefined ? rec.calendario : { ...rec.calendario, dataInicial: revision.dataInicial },
    locId: revision.loc ?? rec.locId,
    activationTxid: revision.activationTxid ?? rec.activationTxid,
  };
  if (revision.cancel) {
    revised = {
      ...revised,
      status: 'CANCELADA',
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' } },
      atualizacao: step(rec, 'CANCELADA', at),
    };
  }
  return ok(revised);
}
