// A payout (cash-out), our own API (the BCB API Pix has no payment initiation): EM_PROCESSAMENTO when asked for, then
// REALIZADO by itself a moment later (the sweeper), or REALIZADO / NAO_REALIZADO / CANCELADO by /sim. The last three
// are final. The destination is resolved when the payout is asked for: a key through the DICT, an account as given.
// A REALIZADO payout may come back from the receiving bank (/sim): returns, each final on arrival.
import { centavosToValor, DestinatarioPagamento, Documento, Pagamento, PagamentoStatus, Violacao, valorToCentavos } from '@pixauto/bank';
import { institutionOf, lookUpKey } from './dict';
import { ok, Problems, refused, Result, violation } from './problems';
import { PayoutRecord } from './records';
import { DEVOLUCAO_ID } from './refund';
import { NewPayout, PayoutStatusChange } from './validation';

export const FINAL_PAYOUT_STATUSES: readonly PagamentoStatus[] = ['REALIZADO', 'NAO_REALIZADO', 'CANCELADO'];
export const isFinal = (status: PagamentoStatus): boolean => FINAL_PAYOUT_STATUSES.includes(status);

/** The reason shown when /sim gives none. */
export const DEFAULT_MOTIVO: Partial<Record<PagamentoStatus, string>> = {
  NAO_REALIZADO: 'O pagamento não foi realizado: a instituição do recebedor recusou o crédito.',
  CANCELADO: 'O pagamento foi cancelado antes da liquidação.',
};

export const UNKNOWN_KEY = 'A chave informada não foi encontrada no DICT.';

const documentOf = (d: Documento): Documento => (d.cpf !== undefined ? { cpf: d.cpf } : { cnpj: d.cnpj as string });

/**
 * The receiving account. A key: the DICT's account, its holder the `favorecido` named (upper-cased, as the DICT keeps
 * names); a key it does not know is 422. An account: as given, the holder as named, the institution's name and code
 * when the ISPB is one the bank knows (else null).
 */
export function resolveDestination(input: Pick<NewPayout, 'destinatario' | 'favorecido'>): Result<DestinatarioPagamento> {
  const { destinatario, favorecido } = input;
  if ('chave' in destinatario) {
    const entry = lookUpKey(destinatario.chave);
    const institution = entry && institutionOf(entry.ispb);
    if (!entry || !institution) return refused(Problems.payoutInvalid([violation('destinatario.chave', UNKNOWN_KEY, destinatario.chave)], 422));
    return ok({
      chave: destinatario.chave,
      nome: favorecido.nome.toUpperCase(),
      ...documentOf(favorecido),
      ispb: entry.ispb,
      nomeBanco: institution.nome,
      codigoBanco: institution.codigo,
      agencia: entry.agencia,
      conta: entry.conta,
      tipoConta: entry.tipoConta,
    });
  }
  const institution = institutionOf(destinatario.ispb);
  return ok({
    nome: favorecido.nome,
    ...documentOf(favorecido),
    ispb: destinatario.ispb,
    nomeBanco: institution?.nome ?? null,
    codigoBanco: institution?.codigo ?? null,
    agencia: destinatario.agencia,
    conta: destinatario.conta,
    ...(destinatario.tipoConta !== undefined && { tipoConta: destinatario.tipoConta }),
  });
}

export function newPayout(idEnvio: string, input: NewPayout, destinatario: DestinatarioPagamento, endToEndId: string, at: Date): PayoutRecord {
  const solicitacao = at.toISOString();
  return {
    idEnvio,
    endToEndId,
    amount: input.amount,
    status: 'EM_PROCESSAMENTO',
    solicitacao,
    destinatario,
    ...(input.infoPagador !== undefined && { infoPagador: input.infoPagador }),
    atualizacao: [{ status: 'EM_PROCESSAMENTO', data: solicitacao }],
  };
}

function moveTo(p: PayoutRecord, status: PagamentoStatus, at: Date, motivo?: string): PayoutRecord {
  // Never before it was asked for (a later request may carry an earlier x-simulated-now than the one that created it).
  const data = new Date(Math.max(at.getTime(), Date.parse(p.solicitacao))).toISOString();
  return {
    ...p,
    status,
    ...(status === 'REALIZADO' && { liquidacao: data }),
    ...(motivo !== undefined && { motivo }),
    atualizacao: [...p.atualizacao, { status, data }],
  };
}

/** The receiving side credits it by itself, `settleMs` after it was asked for; anything but EM_PROCESSAMENTO stays as it is. */
export function settle(p: PayoutRecord, settleMs: number): PayoutRecord {
  return p.status === 'EM_PROCESSAMENTO' ? moveTo(p, 'REALIZADO', new Date(Date.parse(p.solicitacao) + settleMs)) : p;
}

/**
 * /sim/pagamentos/{idEnvio}/status: a final payout can no longer change; EM_PROCESSAMENTO leaves it as it is (the caller
 * stops its automatic settlement); NAO_REALIZADO and CANCELADO carry a motivo (the one given, or the default).
 */
export function changeStatus(p: PayoutRecord, change: PayoutStatusChange, at: Date): Result<PayoutRecord> {
  if (isFinal(p.status)) {
    return refused(Problems.payoutInvalid([violation('status', `O pagamento encontra-se com o status ${p.status} e não pode mais ser alterado.`, p.status)]));
  }
  if (change.status === 'EM_PROCESSAMENTO') return ok(p);
  return ok(moveTo(p, change.status, at, change.motivo ?? DEFAULT_MOTIVO[change.status]));
}

export function pagamentoView(p: PayoutRecord): Pagamento {
  return {
    idEnvio: p.idEnvio,
    endToEndId: p.endToEndId,
    valor: centavosToValor(p.amount),
    status: p.status,
    horario: { solicitacao: p.solicitacao, ...(p.liquidacao !== undefined && { liquidacao: p.liquidacao }) },
    destinatario: p.destinatario,
    ...(p.infoPagador !== undefined && { infoPagador: p.infoPagador }),
    ...(p.motivo !== undefined && { motivo: p.motivo }),
    atualizacao: p.atualizacao,
    ...(p.devolucoes?.length && {
      devolucoes: p.devolucoes.map((d) => ({ id: d.id, rtrId: d.rtrId, valor: centavosToValor(d.amount), horario: { liquidacao: d.liquidacao } })),
    }),
  };
}

/**
 * The receiving bank sends (part of) a REALIZADO payout back (/sim/pagamentos/{idEnvio}/devolucao `{valor?, id?}`):
 * by default what is left, under the given id or the return's own rtrId; never more than was paid.
 */
export function returnPayout(p: PayoutRecord, body: unknown, rtrId: string, at: Date): Result<PayoutRecord> {
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const earlier = p.devolucoes ?? [];
  const left = p.amount - earlier.reduce((sum, d) => sum + d.amount, 0);
  const v: Violacao[] = [];
  if (p.status !== 'REALIZADO') v.push(violation('status', 'Só um pagamento REALIZADO pode ser devolvido.', p.status));
  const amount = input.valor === undefined ? left : valorToCentavos(input.valor);
  if (amount === undefined || amount <= 0) v.push(violation('valor', 'O campo valor não respeita o schema.', input.valor));
  else if (amount > left) v.push(violation('valor', 'A devolução, com as anteriores, excederia o valor do pagamento.', input.valor));
  const id = input.id === undefined ? rtrId : input.id;
  if (typeof id !== 'string' || !DEVOLUCAO_ID.test(id)) v.push(violation('id', 'O campo id não respeita o schema.', input.id));
  else if (earlier.some((d) => d.id === id)) v.push(violation('id', 'Já existe uma devolução com este id para o pagamento.', id));
  if (v.length > 0 || amount === undefined || typeof id !== 'string') return refused(Problems.payoutInvalid(v));
  return ok({ ...p, devolucoes: [...earlier, { id, rtrId, amount, liquidacao: at.toISOString() }] });
}
