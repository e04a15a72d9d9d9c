import { isProblem, providerCodeOf, refusalOfBankAnswer } from './problem';

describe('refusalOfBankAnswer', () => {
  it('keeps the bank status, the detail and the violations in the settlement system names', () => {
    const refusal = refusalOfBankAnswer(400, {
      type: 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida',
      title: 'Operação inválida.',
      status: 400,
      detail: 'A recorrência não respeita o schema.',
      violacoes: [{ razao: 'O campo rec.calendario.dataInicial não respeita o schema.', propriedade: 'rec.calendario.dataInicial', valor: 'x' }],
    });
    expect(refusal).toEqual({
      kind: 'provider',
      status: 400,
      message: 'A recorrência não respeita o schema.',
      providerCode: 'RecOperacaoInvalida',
      violations: [{ property: 'rec.calendario.dataInicial', reason: 'O campo rec.calendario.dataInicial não respeita o schema.' }],
    });
  });

  it('falls back to the title without a detail, and leaves violations out when there are none', () => {
    expect(
      refusalOfBankAnswer(404, { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', title: 'Não Encontrado', status: 404, violacoes: [] }),
    ).toEqual({
      kind: 'provider',
      status: 404,
      message: 'Não Encontrado',
      providerCode: 'NaoEncontrado',
      violations: undefined,
    });
  });

  it('uses the HTTP status of the answer, not the one in the body', () => {
    expect(refusalOfBankAnswer(422, { title: 't', status: 400 })).toMatchObject({ status: 422, providerCode: undefined });
  });

  it('a 5xx without a problem body is the bank being unavailable; a 4xx one a bare refusal', () => {
    expect(refusalOfBankAnswer(502, '<html>Bad gateway</html>')).toEqual({
      kind: 'unavailable',
      message: 'the bank failed to answer (HTTP 502)',
      retryAfterSeconds: 1,
    });
    expect(refusalOfBankAnswer(405, undefined)).toEqual({
      kind: 'provider',
      status: 405,
      message: 'the bank refused the request (HTTP 405)',
      violations: undefined,
      providerCode: undefined,
    });
  });

  it('a 503 problem is still the bank’s own word (ServicoIndisponivel)', () => {
    expect(
      refusalOfBankAnswer(503, { type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', title: 'Serviço Indisponível', status: 503 }),
    ).toMatchObject({
      kind: 'provider',
      status: 503,
      providerCode: 'ServicoIndisponivel',
    });
  });
});

describe('providerCodeOf', () => {
  it.each([
    ['https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', 'CobOperacaoInvalida'],
    ['https://bank.example/errors/Timeout', 'Timeout'],
    ['about:blank', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%p → %p', (type, code) => {
    expect(providerCodeOf(type)).toBe(code);
  });
});

describe('isProblem', () => {
  it('needs a title and a numeric status', () => {
    expect(isProblem({ title: 'x', status: 400 })).toBe(true);
    expect(isProblem({ title: 'x' })).toBe(false);
    expect(isProblem('x')).toBe(false);
    expect(isProblem(null)).toBe(false);
  });
});
