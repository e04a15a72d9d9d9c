import type { DestinatarioPagamento } from '@pixauto/bank';
import { lookUpKey } from './dict';
import { changeStatus, DEFAULT_MOTIVO, newPayout, pagamentoView, resolveDestination, settle, UNKNOWN_KEY } from './payout';
import { PayoutRecord } from './records';
import { NewPayout } from './validation';

const at = new Date('2025-06-01T12:00:00.000Z');
const plus = (ms: number): Date => new Date(at.getTime() + ms);
const favorecido = { nome: 'João da Silva', cpf: '52998224725' };
const toKey: NewPayout = { amount: 1234, destinatario: { chave: 'joao@example.com' }, favorecido };
const toAccount: NewPayout = {
  amount: 1234,
  destinatario: { ispb: '60701190', agencia: '0001', conta: '12345-6' },
  favorecido: { nome: 'Padaria Pão Bom Ltda', cnpj: '11222333000181' },
};

const destination = (input: NewPayout): DestinatarioPagamento => {
  const resolved = resolveDestination(input);
  if (!resolved.ok) throw new Error(resolved.problem.detail);
  return resolved.value;
};
const payout = (input: NewPayout = toKey): PayoutRecord => newPayout('PIXAUTOP000000000001', input, destination(input), 'E12345678202506011200abcdefghijk', at);

describe('the destination of a payout', () => {
  it('a key: the DICT account, the holder named upper-cased with the document sent, the institution named', () => {
    const entry = lookUpKey('joao@example.com');
    expect(destination(toKey)).toEqual({
      chave: 'joao@example.com',
      nome: 'JOÃO DA SILVA',
      cpf: '52998224725',
      ispb: entry?.ispb,
      nomeBanco: expect.any(String),
      codigoBanco: expect.stringMatching(/^\d{3}$/),
      agencia: entry?.agencia,
      conta: entry?.conta,
      tipoConta: entry?.tipoConta,
    });
  });

  it('a key the DICT does not know: 422 PagamentoOperacaoInvalida on destinatario.chave', () => {
    for (const chave of ['naoexiste@example.com', 'not-a-key']) {
      const refused = resolveDestination({ ...toKey, destinatario: { chave } });
      expect(!refused.ok && refused.problem).toEqual({
        type: 'https://pix.bcb.gov.br/api/v2/error/PagamentoOperacaoInvalida',
        title: 'Operação inválida.',
        status: 422,
        detail: UNKNOWN_KEY,
        violacoes: [{ propriedade: 'destinatario.chave', razao: 'A chave informada não foi encontrada no DICT.', valor: chave }],
      });
    }
  });

  it('an account: as given, with the institution name and code when the bank knows the ISPB, else null', () => {
    expect(destination(toAccount)).toEqual({
      nome: 'Padaria Pão Bom Ltda',
      cnpj: '11222333000181',
      ispb: '60701190',
      nomeBanco: 'Itaú Unibanco S.A.',
      codigoBanco: '341',
      agencia: '0001',
      conta: '12345-6',
    });
    const elsewhere = destination({ ...toAccount, destinatario: { ispb: '12312312', agencia: '1', conta: '9', tipoConta: 'POUPANCA' } });
    expect(elsewhere).toMatchObject({ ispb: '12312312', nomeBanco: null, codigoBanco: null, tipoConta: 'POUPANCA' });
  });
});

describe('a payout', () => {
  it('is EM_PROCESSAMENTO when asked for, and shows as the Pagamento', () => {
    expect(pagamentoView(payout({ ...toKey, infoPagador: 'Reembolso' }))).toEqual({
      idEnvio: 'PIXAUTOP000000000001',
      endToEndId: 'E12345678202506011200abcdefghijk',
      valor: '12.34',
      status: 'EM_PROCESSAMENTO',
      horario: { solicitacao: at.toISOString() },
      destinatario: destination(toKey),
      infoPagador: 'Reembolso',
      atualizacao: [{ status: 'EM_PROCESSAMENTO', data: at.toISOString() }],
    });
  });

  it('settles by itself settleMs after it was asked for: REALIZADO with liquidacao; nothing else moves', () => {
    const done = settle(payout(), 1500);
    expect(pagamentoView(done)).toMatchObject({ status: 'REALIZADO', horario: { solicitacao: at.toISOString(), liquidacao: plus(1500).toISOString() } });
    expect(done.atualizacao.map((a) => a.status)).toEqual(['EM_PROCESSAMENTO', 'REALIZADO']);
    expect(settle(done, 1500)).toBe(done);
  });

  it('/sim: REALIZADO now, NAO_REALIZADO and CANCELADO with the reason given or the default one', () => {
    const realized = changeStatus(payout(), { status: 'REALIZADO' }, plus(10));
    expect(realized.ok && pagamentoView(realized.value)).toMatchObject({ status: 'REALIZADO', horario: { liquidacao: plus(10).toISOString() } });
    const refused = changeStatus(payout(), { status: 'NAO_REALIZADO', motivo: 'Conta encerrada' }, plus(10));
    expect(refused.ok && pagamentoView(refused.value)).toMatchObject({ status: 'NAO_REALIZADO', motivo: 'Conta encerrada' });
    expect(refused.ok && refused.value.liquidacao).toBeUndefined();
    const cancelled = changeStatus(payout(), { status: 'CANCELADO' }, plus(10));
    expect(cancelled.ok && pagamentoView(cancelled.value)).toMatchObject({ status: 'CANCELADO', motivo: DEFAULT_MOTIVO.CANCELADO });
  });

  it('/sim: EM_PROCESSAMENTO leaves it as it is; a time before its solicitation is taken as its solicitation', () => {
    const p = payout();
    expect(changeStatus(p, { status: 'EM_PROCESSAMENTO' }, plus(10))).toEqual({ ok: true, value: p });
    const early = changeStatus(p, { status: 'REALIZADO' }, plus(-60_000));
    expect(early.ok && early.value.liquidacao).toBe(at.toISOString());
  });

  it.each(['REALIZADO', 'NAO_REALIZADO', 'CANCELADO'] as const)('/sim: once %s it can no longer change', (final) => {
    const ended = changeStatus(payout(), { status: final }, plus(10));
    if (!ended.ok) throw new Error('expected the change');
    for (const status of ['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO', 'CANCELADO'] as const) {
      const again = changeStatus(ended.value, { status }, plus(20));
      expect(!again.ok && again.problem).toMatchObject({
        type: 'https://pix.bcb.gov.br/api/v2/error/PagamentoOperacaoInvalida',
        status: 400,
        detail: `O pagamento encontra-se com o status ${final} e não pode mais ser alterado.`,
      });
    }
    expect(settle(ended.value, 1500)).toBe(ended.value);
  });
});
