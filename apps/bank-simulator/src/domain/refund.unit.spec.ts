import { newCharge, pay } from './charge';
import { devolucaoView, liquidate, newRefund, RefundRecord } from './refund';

const at = new Date('2025-06-01T12:00:00.000Z');
const paid = (() => {
  const result = pay(newCharge('a'.repeat(32), { amount: 1990, expiracao: 60 }, 'key', 1, at), 'E8765432120250601120000000000001', at);
  if (!result.ok) throw new Error('the fixture charge must be payable');
  return result.value;
})();
const RTR = 'D1234567820250601120000000000001';
const ask = (earlier: RefundRecord[], id: string, valor: unknown) => newRefund(paid, earlier, id, { valor }, RTR, at);
const reasons = (result: ReturnType<typeof ask>) => (result.ok ? [] : result.problem.violacoes?.map((v) => `${v.propriedade}: ${v.razao}`));

describe('a refund of a Pix received (PUT /pix/{e2eid}/devolucao/{id})', () => {
  it('is EM_PROCESSAMENTO with its rtrId, and DEVOLVIDO once liquidated (a second liquidation changes nothing)', () => {
    const asked = ask([], 'R1', '10.00');
    expect(asked.ok && devolucaoView(asked.value)).toEqual({
      id: 'R1',
      rtrId: RTR,
      valor: '10.00',
      natureza: 'ORIGINAL',
      horario: { solicitacao: at.toISOString() },
      status: 'EM_PROCESSAMENTO',
    });
    if (!asked.ok) return;
    const later = new Date(at.getTime() + 60_000);
    const done = liquidate(asked.value, later);
    expect(devolucaoView(done)).toMatchObject({ status: 'DEVOLVIDO', horario: { solicitacao: at.toISOString(), liquidacao: later.toISOString() } });
    expect(liquidate(done, new Date(later.getTime() + 1))).toBe(done);
  });

  it('never exceeds the Pix with the earlier refunds, except those NAO_REALIZADO', () => {
    const first = ask([], 'R1', '15.00');
    if (!first.ok) throw new Error('first refund refused');
    expect(ask([first.value], 'R2', '4.90').ok).toBe(true);
    expect(reasons(ask([first.value], 'R2', '4.91'))).toEqual([
      'devolucao.valor: A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.',
    ]);
    expect(ask([{ ...first.value, status: 'NAO_REALIZADO' }], 'R2', '19.90').ok).toBe(true);
  });

  it('refuses a used id, a malformed id and an amount off the schema', () => {
    const first = ask([], 'R1', '1.00');
    if (!first.ok) throw new Error('first refund refused');
    expect(reasons(ask([first.value], 'R1', '1.00'))).toEqual([
      'id: A presente requisição de devolução apresenta um id já utilizado por outra requisição de devolução para o e2eid em questão.',
    ]);
    expect(reasons(ask([], 'R-1', '1.00'))).toEqual(['id: O parâmetro id não respeita o schema.']);
    for (const valor of ['1', '0.00', 1, undefined])
      expect(reasons(ask([], 'R1', valor))).toEqual(['devolucao.valor: O campo devolucao.valor não respeita o schema.']);
  });
});
