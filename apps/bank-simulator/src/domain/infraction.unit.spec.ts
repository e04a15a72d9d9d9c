import { conclude, defend, infracaoView, InfractionRecord, newInfraction } from './infraction';
import { RefundRecord } from './refund';

// Infractions (MED) on a Pix received: opened by the payer's bank, defended once in time, concluded by their desfecho
// into a devolução of the motivo's natureza, never more than the block nor than what the Pix has left.

const at = new Date('2026-11-25T12:00:00.000Z');
const E2E = 'E8765432120261125120000000000001';
const RTR = 'D1234567820261201120000000000001';
const open = (body: Record<string, unknown>) =>
  newInfraction(
    'INF1',
    { endToEndId: E2E, motivo: 'FRAUDE', valor: '100.00', prazoDefesa: '2026-12-01T12:00:00.000Z', desfecho: 'DEVOLVER', ...body },
    15050,
    at,
  );
const opened = (body: Record<string, unknown> = {}): InfractionRecord => {
  const result = open(body);
  if (!result.ok) throw new Error('the fixture infraction must open');
  return result.value;
};
const refund = (amount: number, status: RefundRecord['status'] = 'DEVOLVIDO'): RefundRecord => ({
  id: 'R1',
  endToEndId: E2E,
  rtrId: 'D1234567820261126120000000000009',
  amount,
  status,
  solicitacao: at.toISOString(),
});
const later = new Date('2026-12-02T12:00:00.000Z');

describe('an infraction (MED) on a Pix received', () => {
  it('opens ABERTA, the claim at most the Pix, with a known motivo and desfecho', () => {
    expect(infracaoView(opened())).toEqual({
      id: 'INF1',
      endToEndId: E2E,
      motivo: 'FRAUDE',
      valor: '100.00',
      prazoDefesa: '2026-12-01T12:00:00.000Z',
      status: 'ABERTA',
      criacao: at.toISOString(),
    });
    const refused = open({ valor: '150.51', motivo: 'OUTRO', desfecho: 'TALVEZ' });
    expect(refused.ok ? [] : refused.problem.violacoes?.map((v) => v.propriedade)).toEqual(['infracao.valor', 'infracao.motivo', 'infracao.desfecho']);
  });

  it('takes one defence until prazoDefesa', () => {
    const defended = defend(opened(), { texto: 'Entregue.', anexos: [] }, new Date('2026-12-01T12:00:00.000Z'));
    expect(defended.ok && defended.value.status).toBe('DEFENDIDA');
    if (!defended.ok) return;
    expect(defend(defended.value, { texto: 'De novo.', anexos: [] }, at)).toMatchObject({ ok: false, problem: { title: 'Operação inválida.' } });
    expect(defend(opened(), { texto: 'Tarde.', anexos: [] }, new Date('2026-12-01T12:00:00.001Z'))).toMatchObject({
      ok: false,
      problem: { detail: 'O prazo de defesa da infração terminou.' },
    });
  });

  it('returns the claim, half of it, or nothing, as a devolução of the motivo’s natureza, DEVOLVIDO at once', () => {
    const whole = conclude(opened(), 15050, { amount: 15050, refunds: [] }, RTR, later);
    expect(whole.infraction).toMatchObject({ status: 'CONCLUIDA', resultado: 'DEVOLVIDO', conclusao: later.toISOString() });
    expect(whole.refund).toEqual({
      id: 'MEDINF1',
      endToEndId: E2E,
      rtrId: RTR,
      amount: 10000,
      natureza: 'MED_FRAUDE',
      status: 'DEVOLVIDO',
      solicitacao: later.toISOString(),
      liquidacao: later.toISOString(),
    });
    expect(
      conclude(opened({ desfecho: 'DEVOLVER_PARCIAL', motivo: 'FALHA_OPERACIONAL' }), 15050, { amount: 15050, refunds: [] }, RTR, later).refund,
    ).toMatchObject({
      amount: 5000,
      natureza: 'MED_OPERACIONAL',
    });
    const rejected = conclude(opened({ desfecho: 'REJEITAR', motivo: 'PIX_AUTOMATICO' }), 15050, { amount: 15050, refunds: [] }, RTR, later);
    expect(rejected).toEqual({ infraction: expect.objectContaining({ status: 'CONCLUIDA', resultado: 'REJEITADO' }) });
  });

  it('never returns more than the block nor than what the Pix has left; concluded once', () => {
    expect(conclude(opened(), 3000, { amount: 15050, refunds: [] }, RTR, later).refund?.amount).toBe(3000);
    expect(conclude(opened(), 15050, { amount: 15050, refunds: [refund(12000), refund(1000, 'NAO_REALIZADO')] }, RTR, later).refund?.amount).toBe(3050);
    const nothingLeft = conclude(opened(), 15050, { amount: 15050, refunds: [refund(15050)] }, RTR, later);
    expect(nothingLeft.infraction.resultado).toBe('REJEITADO');
    const done = conclude(opened(), 15050, { amount: 15050, refunds: [] }, RTR, later).infraction;
    expect(conclude(done, 15050, { amount: 15050, refunds: [] }, RTR, later)).toEqual({ infraction: done });
  });
});
