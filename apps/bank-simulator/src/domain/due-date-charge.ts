// A due-date charge (cobv): ATIVA until paid (CONCLUIDA) or removed. Past its validity it stays ATIVA (the status
// "não guarda relação com o fato de a cobrança encontrar-se vencida") and can no longer be paid. The amount paid is
// the one of the day (libs/pix amountDueOn), as the payload at its location shows it.
import type { CobStatus, CobVCompleta, CobVPayload, CobVSolicitada, CobVValor, DevedorCobV, Violacao } from '@pixauto/bank';
import { centavosToValor, fromCobVValor } from '@pixauto/bank';
import { amountDueOn, compareDates, DueDateTerms, isValidCalendarDate, isValidCnpj, isValidCpf, lastPayableDay } from '@pixauto/pix';
import { ok, Problems, refused, Result, violation } from './problems';
import { brCode } from './br-code';
import { Receiver } from './records';

export interface CobVRecord {
  txid: string;
  status: CobStatus;
  createdAt: string;
  revisao: number;
  calendario: { dataDeVencimento: string; validadeAposVencimento: number };
  devedor: DevedorCobV;
  valor: CobVValor;
  chave: string;
  solicitacaoPagador?: string;
  location: string;
  payment: { endToEndId: string; horario: string; valor: string } | null;
}

/** The terms the amount of a day follows (validated on the way in, so always readable). */
export const termsOf = (cobv: Pick<CobVRecord, 'calendario' | 'valor'>): DueDateTerms => fromCobVValor(cobv.calendario, cobv.valor) as DueDateTerms;

/** PUT /cobv/{txid}'s body, judged as the BCB lists CobVOperacaoInvalida's violations (those the simulator checks). */
export function validateNewDueDateCharge(body: unknown, today: string): Result<CobVSolicitada> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Partial<CobVSolicitada>;
  const v: Violacao[] = [];
  const due = b.calendario?.dataDeVencimento;
  if (typeof due !== 'string' || isValidCalendarDate(due) !== 'ok')
    v.push(violation('cobv.calendario.dataDeVencimento', 'O campo cobv.calendario.dataDeVencimento não respeita o schema.'));
  else if (compareDates(due, today) < 0)
    v.push(violation('cobv.calendario.dataDeVencimento', 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', due));
  const validity = b.calendario?.validadeAposVencimento;
  if (validity !== undefined && (!Number.isInteger(validity) || validity < 0))
    v.push(violation('cobv.calendario.validadeAposVencimento', 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.', validity));
  const d = b.devedor;
  const document = d?.cpf !== undefined ? isValidCpf(String(d.cpf)) && d.cnpj === undefined : d?.cnpj !== undefined && isValidCnpj(String(d.cnpj));
  if (!d || !document || typeof d.nome !== 'string' || d.nome.length === 0 || d.nome.length > 200)
    v.push(violation('cobv.devedor', 'O objeto cobv.devedor não respeita o schema.'));
  if (typeof b.chave !== 'string' || b.chave.length === 0) v.push(violation('cobv.chave', 'O campo cobv.chave não respeita o schema.'));
  const terms = b.valor && typeof due === 'string' ? fromCobVValor({ dataDeVencimento: due, validadeAposVencimento: validity }, b.valor) : undefined;
  if (!terms) v.push(violation('cobv.valor', 'O objeto cobv.valor não respeita o schema.'));
  else if (terms.amount_centavos === 0) v.push(violation('cobv.valor.original', 'O campo cobv.valor.original apresenta o valor zero.'));
  return v.length > 0 ? refused(Problems.cobVInvalid(v)) : ok(b as CobVSolicitada);
}

export function newDueDateCharge(txid: string, input: CobVSolicitada, location: string, at: Date): CobVRecord {
  return {
    txid,
    status: 'ATIVA',
    createdAt: at.toISOString(),
    revisao: 0,
    calendario: { dataDeVencimento: input.calendario.dataDeVencimento, validadeAposVencimento: input.calendario.validadeAposVencimento ?? 30 },
    devedor: input.devedor,
    valor: input.valor,
    chave: input.chave,
    ...(input.solicitacaoPagador !== undefined && { solicitacaoPagador: input.solicitacaoPagador }),
    location,
    payment: null,
  };
}

/** PATCH /cobv/{txid}: new terms (revisao + 1), or the removal, only while ATIVA and never both at once. */
export function reviseDueDateCharge(cobv: CobVRecord, body: unknown, today: string): Result<CobVRecord> {
  if (cobv.status !== 'ATIVA')
    return refused(Problems.cobVInvalid([violation('cobv.status', 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', cobv.status)]));
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (b.status !== undefined) {
    if (b.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || Object.keys(b).length > 1)
      return refused(Problems.cobVInvalid([violation('cobv.status', 'O campo cob.status não respeita o schema, ou a remoção vem com outras alterações.')]));
    return ok({ ...cobv, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: cobv.revisao + 1 });
  }
  const merged = {
    calendario: { ...cobv.calendario, ...(b.calendario as object) },
    devedor: b.devedor ?? cobv.devedor,
    valor: b.valor ?? cobv.valor,
    chave: b.chave ?? cobv.chave,
  };
  const checked = validateNewDueDateCharge({ ...merged, solicitacaoPagador: b.solicitacaoPagador ?? cobv.solicitacaoPagador }, today);
  if (!checked.ok) return checked;
  const input = checked.value;
  return ok({ ...newDueDateCharge(cobv.txid, input, cobv.location, new Date(cobv.createdAt)), revisao: cobv.revisao + 1 });
}

/** The payer pays on `today` the amount of that day: only an ATIVA charge within its validity. */
export function payDueDateCharge(cobv: CobVRecord, endToEndId: string, today: string, at: Date): Result<CobVRecord> {
  if (cobv.status !== 'ATIVA')
    return refused(Problems.cobVInvalid([violation('cobv.status', `A cobrança encontra-se com o status ${cobv.status} e não pode ser paga.`, cobv.status)]));
  const due = amountDueOn(termsOf(cobv), today);
  if (!due)
    return refused(
      Problems.cobVInvalid([
        violation('cobv.calendario', `A cobrança venceu e sua validade terminou em ${lastPayableDay(termsOf(cobv))}: não pode mais ser paga.`),
      ]),
    );
  return ok({ ...cobv, status: 'CONCLUIDA', payment: { endToEndId, horario: at.toISOString(), valor: centavosToValor(due.final) } });
}

export function cobVView(cobv: CobVRecord, receiver: Receiver): CobVCompleta {
  return {
    calendario: { criacao: cobv.createdAt, ...cobv.calendario },
    txid: cobv.txid,
    revisao: cobv.revisao,
    location: cobv.location,
    status: cobv.status,
    devedor: cobv.devedor,
    recebedor: recebedorOf(receiver),
    valor: cobv.valor,
    chave: cobv.chave,
    ...(cobv.solicitacaoPagador !== undefined && { solicitacaoPagador: cobv.solicitacaoPagador }),
    pixCopiaECola: brCode({ merchantName: receiver.nome, merchantCity: receiver.city, chargeLocation: cobv.location }),
    ...(cobv.payment && {
      pix: [{ endToEndId: cobv.payment.endToEndId, txid: cobv.txid, valor: cobv.payment.valor, chave: cobv.chave, horario: cobv.payment.horario }],
    }),
  };
}

/**
 * GET /cobv/{pixUrlAccessToken}: the charge as the payer's bank reads it, with the amount of the day it means to
 * pay (DPP, today by default); a DPP before today or past the validity is CobPayloadOperacaoInvalida.
 */
export function cobVPayload(cobv: CobVRecord, receiver: Receiver, today: string, dpp: string | undefined, at: Date): Result<CobVPayload> {
  const day = dpp ?? today;
  if (isValidCalendarDate(day) !== 'ok') return refused(Problems.cobPayloadInvalid([violation('DPP', 'DPP não respeita o schema.', day)]));
  if (compareDates(day, today) < 0) return refused(Problems.cobPayloadInvalid([violation('DPP', 'DPP anterior ao momento presente.', day)]));
  const due = amountDueOn(termsOf(cobv), day);
  if (!due) return refused(Problems.cobPayloadInvalid([violation('DPP', 'DPP superior à validade da cobrança.', day)]));
  const money = (c: number) => (c > 0 ? centavosToValor(c) : undefined);
  const d = cobv.devedor;
  return ok({
    txid: cobv.txid,
    revisao: cobv.revisao,
    calendario: { criacao: cobv.createdAt, apresentacao: at.toISOString(), ...cobv.calendario },
    devedor: d.cpf !== undefined ? { cpf: d.cpf, nome: d.nome } : { cnpj: d.cnpj as string, nome: d.nome },
    recebedor: recebedorOf(receiver),
    status: cobv.status,
    valor: {
      original: centavosToValor(due.original),
      ...(money(due.fine) && { multa: money(due.fine) }),
      ...(money(due.interest) && { juros: money(due.interest) }),
      ...(money(due.abatement) && { abatimento: money(due.abatement) }),
      ...(money(due.discount) && { desconto: money(due.discount) }),
      final: centavosToValor(due.final),
    },
    chave: cobv.chave,
    ...(cobv.solicitacaoPagador !== undefined && { solicitacaoPagador: cobv.solicitacaoPagador }),
  });
}

/** The simulator's receiver, with an address (a due-date charge names it). */
const recebedorOf = (receiver: Receiver) => ({
  cnpj: receiver.cnpj,
  nome: receiver.nome,
  logradouro: 'Avenida Paulista, 1000',
  cidade: receiver.city,
  uf: 'SP',
  cep: '01310100',
});
