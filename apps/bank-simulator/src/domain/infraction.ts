// Infractions (MED) reported on a Pix received: the bank's own API, not the BCB's (libs/bank infractions.ts). The
// payer's bank opens one (/sim), the receiver may defend it once until prazoDefesa, and the banks conclude it: the
// Pix returned (whole or part, a devolução of natureza MED_*, liquidated at once) or the claim rejected.
// Pure rules; the store keeps the records.
import { centavosToValor, DesfechoInfracao, DevolucaoNatureza, Infracao, InfracaoMotivo, valorToCentavos, Violacao } from '@pixauto/bank';
import { Centavos } from '@pixauto/pix';
import { ok, Problems, refused, Result, violation } from './problems';
import { RefundRecord } from './refund';

export interface InfractionRecord extends Infracao {
  desfecho: DesfechoInfracao;
}

const MOTIVOS: readonly InfracaoMotivo[] = ['FRAUDE', 'FALHA_OPERACIONAL', 'PIX_AUTOMATICO'];
const DESFECHOS: readonly DesfechoInfracao[] = ['DEVOLVER', 'DEVOLVER_PARCIAL', 'REJEITAR'];
const NATUREZA: Record<InfracaoMotivo, DevolucaoNatureza> = {
  FRAUDE: 'MED_FRAUDE',
  FALHA_OPERACIONAL: 'MED_OPERACIONAL',
  PIX_AUTOMATICO: 'MED_PIX_AUTOMATICO',
};

/** A new infraction on a paid Pix of `paid` centavos: the claim at most the Pix. */
export function newInfraction(id: string, body: unknown, paid: Centavos, now: Date): Result<InfractionRecord> {
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const v: Violacao[] = [];
  const valor = valorToCentavos(input.valor);
  if (valor === undefined || valor === 0 || valor > paid)
    v.push(violation('infracao.valor', 'O campo infracao.valor não respeita o schema ou excede o valor do pix.', input.valor));
  if (!MOTIVOS.includes(input.motivo as InfracaoMotivo)) v.push(violation('infracao.motivo', 'O campo infracao.motivo não respeita o schema.', input.motivo));
  if (!DESFECHOS.includes(input.desfecho as DesfechoInfracao))
    v.push(violation('infracao.desfecho', 'O campo infracao.desfecho não respeita o schema.', input.desfecho));
  if (typeof input.prazoDefesa !== 'string' || Number.isNaN(Date.parse(input.prazoDefesa)))
    v.push(violation('infracao.prazoDefesa', 'O campo infracao.prazoDefesa não respeita o schema.', input.prazoDefesa));
  if (v.length > 0 || valor === undefined) return refused(Problems.infractionInvalid(v));
  return ok({
    id,
    endToEndId: input.endToEndId as string,
    motivo: input.motivo as InfracaoMotivo,
    valor: centavosToValor(valor),
    prazoDefesa: new Date(input.prazoDefesa as string).toISOString(),
    status: 'ABERTA',
    criacao: now.toISOString(),
    desfecho: input.desfecho as DesfechoInfracao,
  });
}

/** The receiver's defence: once, while ABERTA, until prazoDefesa. */
export function defend(infraction: InfractionRecord, body: unknown, now: Date): Result<InfractionRecord> {
  const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (typeof input.texto !== 'string' || input.texto === '' || !Array.isArray(input.anexos))
    return refused(Problems.infractionInvalid([violation('defesa', 'A defesa não respeita o schema.', undefined)]));
  if (infraction.status !== 'ABERTA') return refused(Problems.infractionOperationInvalid('A infração não está aberta a defesa.'));
  if (now.getTime() > Date.parse(infraction.prazoDefesa)) return refused(Problems.infractionOperationInvalid('O prazo de defesa da infração terminou.'));
  return ok({ ...infraction, status: 'DEFENDIDA' });
}

/**
 * The conclusion, by the desfecho chosen at opening: the claim (or half of it) returned, never more than what the
 * receiver still holds (`blocked`) nor than what earlier devoluções left of the Pix; nothing to return is a rejection.
 */
export function conclude(
  infraction: InfractionRecord,
  blocked: Centavos,
  pix: { amount: Centavos; refunds: readonly RefundRecord[] },
  rtrId: string,
  now: Date,
): { infraction: InfractionRecord; refund?: RefundRecord } {
  if (infraction.status === 'CONCLUIDA') return { infraction };
  const claim = valorToCentavos(infraction.valor) ?? 0;
  const left = pix.amount - pix.refunds.filter((r) => r.status !== 'NAO_REALIZADO').reduce((sum, r) => sum + r.amount, 0);
  const whole = Math.max(0, Math.min(claim, blocked, left));
  const amount = infraction.desfecho === 'DEVOLVER' ? whole : infraction.desfecho === 'DEVOLVER_PARCIAL' ? Math.floor(whole / 2) : 0;
  const concluded = { ...infraction, status: 'CONCLUIDA' as const, conclusao: now.toISOString() };
  if (amount === 0) return { infraction: { ...concluded, resultado: 'REJEITADO' } };
  const refund: RefundRecord = {
    id: `MED${infraction.id}`.slice(0, 35),
    endToEndId: infraction.endToEndId,
    rtrId,
    amount,
    natureza: NATUREZA[infraction.motivo],
    status: 'DEVOLVIDO',
    solicitacao: now.toISOString(),
    liquidacao: now.toISOString(),
  };
  return { infraction: { ...concluded, resultado: 'DEVOLVIDO' }, refund };
}

export const infracaoView = (record: InfractionRecord, devolucao?: Infracao['devolucao']): Infracao => {
  const { desfecho: _desfecho, ...infracao } = record;
  return devolucao ? { ...infracao, devolucao } : infracao;
};
