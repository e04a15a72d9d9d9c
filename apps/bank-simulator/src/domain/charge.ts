// An immediate charge (cob): ATIVA until paid (CONCLUIDA). Its expiry is not a status (CobrancaStatus says the
// status "não guarda relação com o fato de a cobrança encontrar-se ... expirada"): a charge past
// criacao + expiracao stays ATIVA and can no longer be paid.
import { ok, Problems, refused, Result, violation } from './problems';
import { CobRecord } from './records';
import { NewCharge } from './validation';

export const isExpired = (cob: Pick<CobRecord, 'createdAt' | 'expiracao'>, now: Date): boolean =>
  now.getTime() >= Date.parse(cob.createdAt) + cob.expiracao * 1000;

export const isPayable = (cob: CobRecord, now: Date): boolean => cob.status === 'ATIVA' && !isExpired(cob, now);

export function newCharge(txid: string, input: NewCharge, defaultKey: string, locId: number, at: Date): CobRecord {
  return {
    txid,
    status: 'ATIVA',
    createdAt: at.toISOString(),
    expiracao: input.expiracao,
    revisao: 0,
    amount: input.amount,
    ...(input.modalidadeAlteracao !== undefined && { modalidadeAlteracao: input.modalidadeAlteracao }),
    ...(input.devedor !== undefined && { devedor: input.devedor }),
    chave: input.chave ?? defaultKey,
    ...(input.solicitacaoPagador !== undefined && { solicitacaoPagador: input.solicitacaoPagador }),
    ...(input.infoAdicionais !== undefined && { infoAdicionais: input.infoAdicionais }),
    locId,
    idRec: null,
    payment: null,
  };
}

/** PUT on an existing txid revises the charge: "A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la." */
export function reviseCharge(cob: CobRecord, input: NewCharge): Result<CobRecord> {
  if (cob.status !== 'ATIVA') {
    return refused(
      Problems.cobInvalid([violation('cob.status', 'A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.', cob.status)]),
    );
  }
  const revised = newCharge(cob.txid, input, cob.chave, cob.locId, new Date(cob.createdAt));
  return ok({ ...revised, revisao: cob.revisao + 1, idRec: cob.idRec });
}

/** The payer pays: only an ATIVA charge within its expiry. */
export function pay(cob: CobRecord, endToEndId: string, at: Date): Result<CobRecord> {
  if (cob.status !== 'ATIVA') {
    return refused(Problems.cobInvalid([violation('cob.status', `A cobrança encontra-se com o status ${cob.status} e não pode ser paga.`, cob.status)]));
  }
  if (isExpired(cob, at)) {
    return refused(
      Problems.cobInvalid([
        violation('cob.calendario.expiracao', 'A cobrança está expirada (calendario.criacao + calendario.expiracao) e não pode mais ser paga.'),
      ]),
    );
  }
  return ok({ ...cob, status: 'CONCLUIDA', payment: { endToEndId, horario: at.toISOString() } });
}

/**
 * PATCH /cob/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR: only an ATIVA charge ("A cobrança não está ATIVA, e a
 * presente requisição busca alterá-la."); a revision like any other (revisao + 1). A removed charge can no longer be paid.
 */
export function removeCharge(cob: CobRecord): Result<CobRecord> {
  if (cob.status !== 'ATIVA') {
    return refused(Problems.cobInvalid([violation('cob.status', 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', cob.status)]));
  }
  return ok({ ...cob, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: cob.revisao + 1 });
}
