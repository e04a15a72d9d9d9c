// Refunds of a Pix received (BCB `PUT /pix/{e2eid}/devolucao/{id}`): asked EM_PROCESSAMENTO, liquidated
// (DEVOLVIDO) by the bank by itself some time later or at once through /sim. Pure rules; the store keeps the records.
import { centavosToValor, Devolucao, DevolucaoNatureza, Violacao, valorToCentavos } from '@pixauto/bank';
import { Centavos } from '@pixauto/pix';
import { CobRecord } from './records';
import { ok, Problems, refused, Result, violation } from './problems';

export interface RefundRecord {
  /** The client's id for the refund (DevolucaoId), unique per Pix. */
  id: string;
  endToEndId: string;
  /** The return's own end-to-end id (pacs.004 ReturnIdentification). */
  rtrId: string;
  amount: Centavos;
  /** ORIGINAL (absent) for the receiver's own refunds; MED_* for the return an infraction concluded. */
  natureza?: DevolucaoNatureza;
  descricao?: string;
  status: Devolucao['status'];
  solicitacao: string;
  liquidacao?: string;
}

export const DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;

/**
 * A new refund of a paid charge: the id unused for this Pix, the amount within what its earlier refunds left
 * (those NAO_REALIZADO give theirs back), the spec's PixDevolucaoInvalida otherwise.
 */
export function newRefund(cob: CobRecord, earlier: RefundRecord[], id: string, body: unknown, rtrId: string, now: Date): Result<RefundRecord> {
  const v: Violacao[] = [];
  if (!DEVOLUCAO_ID.test(id)) v.push(violation('id', 'O parâmetro id não respeita o schema.', id));
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const amount = valorToCentavos(input.valor);
  if (amount === undefined || amount === 0) v.push(violation('devolucao.valor', 'O campo devolucao.valor não respeita o schema.', input.valor));
  if (input.descricao !== undefined && (typeof input.descricao !== 'string' || input.descricao.length > 140))
    v.push(violation('devolucao.descricao', 'O campo devolucao.descricao não respeita o schema.', input.descricao));
  if (earlier.some((r) => r.id === id))
    v.push(violation('id', 'A presente requisição de devolução apresenta um id já utilizado por outra requisição de devolução para o e2eid em questão.', id));
  const refunded = earlier.filter((r) => r.status !== 'NAO_REALIZADO').reduce((sum, r) => sum + r.amount, 0);
  if (amount !== undefined && refunded + amount > cob.amount)
    v.push(
      violation(
        'devolucao.valor',
        'A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.',
        input.valor,
      ),
    );
  if (v.length > 0 || amount === undefined || !cob.payment) return refused(Problems.refundInvalid(v));
  return ok({
    id,
    endToEndId: cob.payment.endToEndId,
    rtrId,
    amount,
    ...(typeof input.descricao === 'string' && { descricao: input.descricao }),
    status: 'EM_PROCESSAMENTO',
    solicitacao: now.toISOString(),
  });
}

/** The bank liquidates the refund: DEVOLVIDO. Once it is, a repeat changes nothing. */
export const liquidate = (refund: RefundRecord, now: Date): RefundRecord =>
  refund.status === 'EM_PROCESSAMENTO' ? { ...refund, status: 'DEVOLVIDO', liquidacao: now.toISOString() } : refund;

export const devolucaoView = (r: RefundRecord): Devolucao => ({
  id: r.id,
  rtrId: r.rtrId,
  valor: centavosToValor(r.amount),
  natureza: r.natureza ?? 'ORIGINAL',
  ...(r.descricao !== undefined && { descricao: r.descricao }),
  horario: { solicitacao: r.solicitacao, ...(r.liquidacao && { liquidacao: r.liquidacao }) },
  status: r.status,
});
