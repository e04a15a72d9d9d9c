import { isExpired, isPayable, newCharge, pay, removeCharge, reviseCharge } from './charge';

const at = new Date('2025-06-01T12:00:00.000Z');
const plus = (seconds: number): Date => new Date(at.getTime() + seconds * 1000);
const charge = () => newCharge('a'.repeat(32), { amount: 1990, expiracao: 60 }, 'key', 1, at);

describe('an immediate charge', () => {
  it('is payable until criacao + expiracao, and stays ATIVA after (expiry is not a status)', () => {
    expect(isPayable(charge(), plus(59))).toBe(true);
    expect(isExpired(charge(), plus(60))).toBe(true);
    const late = pay(charge(), 'E1', plus(60));
    expect(!late.ok && late.problem.violacoes?.[0].propriedade).toBe('cob.calendario.expiracao');
  });

  it('is paid once', () => {
    const paid = pay(charge(), 'E1', plus(1));
    expect(paid.ok && paid.value).toMatchObject({ status: 'CONCLUIDA', payment: { endToEndId: 'E1', horario: plus(1).toISOString() } });
    expect(paid.ok && pay(paid.value, 'E2', plus(2)).ok).toBe(false);
  });

  it('is revised by a second PUT while ATIVA, keeping its creation, location and recurrence', () => {
    const bound = { ...charge(), idRec: 'RN1234567820250601abcdefghijk' };
    const revised = reviseCharge(bound, { amount: 2500, expiracao: 120 });
    expect(revised.ok && revised.value).toMatchObject({
      revisao: 1,
      amount: 2500,
      expiracao: 120,
      createdAt: at.toISOString(),
      locId: 1,
      idRec: bound.idRec,
      chave: 'key',
    });
    const paid = pay(charge(), 'E1', plus(1));
    expect(paid.ok && reviseCharge(paid.value, { amount: 1, expiracao: 1 }).ok).toBe(false);
  });
});

describe('removing an immediate charge (PATCH /cob, REMOVIDA_PELO_USUARIO_RECEBEDOR)', () => {
  it('removes an ATIVA charge as a revision, which then can no longer be paid', () => {
    const removed = removeCharge(charge());
    expect(removed.ok && removed.value).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    const late = removed.ok ? pay(removed.value, 'E1', plus(1)) : undefined;
    expect(late?.ok).toBe(false);
    expect(late && !late.ok && late.problem).toMatchObject({
      status: 400,
      detail: 'A cobrança encontra-se com o status REMOVIDA_PELO_USUARIO_RECEBEDOR e não pode ser paga.',
    });
    expect(isPayable(removed.ok ? removed.value : charge(), plus(1))).toBe(false);
  });

  it('refuses anything but an ATIVA charge', () => {
    const paid = pay(charge(), 'E1', plus(1));
    const again = paid.ok ? removeCharge(paid.value) : undefined;
    expect(again && !again.ok && again.problem).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      status: 400,
      detail: 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.',
    });
    const removed = removeCharge(charge());
    expect(removed.ok && removeCharge(removed.value).ok).toBe(false);
  });
});
